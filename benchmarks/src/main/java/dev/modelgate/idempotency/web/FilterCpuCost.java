package dev.modelgate.idempotency.web;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import com.sun.management.OperatingSystemMXBean;

/**
 * The CPU time of the filter benchmark's paths, per operation, for all the process's threads (the
 * heartbeat's included), as the load benchmark reads the sample gateway's from {@code /proc}: on a
 * machine shared with other work, JMH's wall-clock time per operation grows with the load (and the
 * JIT, starved of CPU, takes longer to compile), while the CPU an operation takes hardly does.
 * Each path runs on {@code threads} threads for {@code warm-up} seconds, then for {@code seconds}
 * seconds while the process CPU time is read before and after; the paths are interleaved over
 * {@code rounds} rounds and the median is printed; {@code paths}, a regular expression, picks some.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.modelgate.idempotency.web.FilterCpuCost [seconds] [rounds] [threads] [warm-up] [paths]</pre>
 */
public final class FilterCpuCost {

	private FilterCpuCost() {
	}

	public static void main(String[] args) throws Exception {
		int seconds = (args.length > 0) ? Integer.parseInt(args[0]) : 5;
		int rounds = (args.length > 1) ? Integer.parseInt(args[1]) : 3;
		int threads = (args.length > 2) ? Integer.parseInt(args[2]) : 1;
		int warmUp = (args.length > 3) ? Integer.parseInt(args[3]) : 10;
		String picked = (args.length > 4) ? args[4] : ".*";
		IdempotencyFilterBenchmark benchmark = new IdempotencyFilterBenchmark();
		benchmark.requestBytes = 1024;
		benchmark.start();
		Map<String, Operation> paths = new LinkedHashMap<>();
		paths.put("newKeyConfiguredBare", benchmark::newKeyConfiguredBare);
		paths.put("newKeyConfigured", benchmark::newKeyConfigured);
		paths.put("replayConfigured", benchmark::replayConfigured);
		paths.put("newKeyBare", benchmark::newKeyBare);
		paths.put("newKeyFiltered", benchmark::newKeyFiltered);
		paths.put("replayFiltered", benchmark::replayFiltered);
		paths.keySet().removeIf((name) -> !name.matches(picked));
		try {
			for (Map.Entry<String, Operation> path : paths.entrySet()) {
				run(path.getValue(), threads, warmUp);
			}
			Map<String, double[]> results = new LinkedHashMap<>();
			for (int round = 0; round < rounds; round++) {
				for (Map.Entry<String, Operation> path : paths.entrySet()) {
					results.computeIfAbsent(path.getKey(), (name) -> new double[rounds])[round] = run(path.getValue(),
							threads, seconds);
				}
			}
			System.out.printf("%-22s %14s   (process CPU per operation, %d thread(s), median of %d rounds of %d s)%n",
					"path", "CPU µs/op", threads, rounds, seconds);
			for (Map.Entry<String, double[]> result : results.entrySet()) {
				double[] values = result.getValue().clone();
				java.util.Arrays.sort(values);
				System.out.printf("%-22s %14.2f   rounds: %s%n", result.getKey(), values[values.length / 2],
						java.util.Arrays.toString(result.getValue()));
			}
		}
		finally {
			benchmark.stop();
		}
	}

	/** {@return the process's CPU microseconds per operation over a run of {@code seconds} on {@code threads} threads} */
	private static double run(Operation operation, int threads, int seconds) throws InterruptedException {
		OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
		AtomicBoolean running = new AtomicBoolean(true);
		LongAdder operations = new LongAdder();
		CountDownLatch done = new CountDownLatch(threads);
		long cpuBefore = os.getProcessCpuTime();
		for (int i = 0; i < threads; i++) {
			Thread thread = new Thread(() -> {
				try {
					while (running.get()) {
						operation.run();
						operations.increment();
					}
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
				finally {
					done.countDown();
				}
			});
			thread.setDaemon(true);
			thread.start();
		}
		Thread.sleep(seconds * 1000L);
		running.set(false);
		done.await();
		long cpu = os.getProcessCpuTime() - cpuBefore;
		return cpu / 1000.0 / Math.max(1, operations.sum());
	}

	@FunctionalInterface
	private interface Operation {

		Object run() throws Exception;

	}

}
