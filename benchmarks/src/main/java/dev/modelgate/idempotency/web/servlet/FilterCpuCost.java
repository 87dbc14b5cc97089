package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import com.sun.management.OperatingSystemMXBean;

import dev.modelgate.idempotency.web.reactive.ReactiveEngineBenchmark;

/**
 * The CPU time of the filter benchmark's paths, per operation, for all the process's threads (the
 * heartbeat's included), as the load benchmark reads the sample gateway's from {@code /proc}: on a
 * machine shared with other work, JMH's wall-clock time per operation grows with the load (and the
 * JIT, starved of CPU, takes longer to compile), while the CPU an operation takes hardly does.
 * Each path runs on {@code threads} threads for {@code warm-up} seconds, again (up to 5 times) while
 * the JIT compiler threads took more than 2 % of the process's CPU, then for {@code seconds} seconds
 * while the CPU times are read before and after; the paths are interleaved over {@code rounds}
 * rounds and the medians are printed: the process's CPU less its JIT compiler threads' (read from
 * {@code /proc/self/task}, so on Linux; GC and the heartbeat included), and the operating threads'
 * own. {@code paths}, a regular expression, picks some. The servlet filter's new key over the memory
 * store ({@code newKeyMemory} against {@code newKeyBare}) and the reactive engine's
 * ({@code reactiveNewKey} against {@code reactiveNewKeyBare}, {@link ReactiveEngineBenchmark}) can be
 * compared in one run, and so can a new key and a replay with and without encryption at rest
 * ({@code newKeyMemoryEncrypted} against {@code newKeyMemory}, {@code replayMemoryEncrypted} against
 * {@code replayMemory}). Figures depend on which paths share the process (call sites the paths share
 * stay more or less polymorphic): compare only runs of the same paths.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.modelgate.idempotency.web.servlet.FilterCpuCost [seconds] [rounds] [threads] [warm-up] [paths]</pre>
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
		ReactiveEngineBenchmark reactive = new ReactiveEngineBenchmark();
		Map<String, Operation> paths = new LinkedHashMap<>();
		paths.put("newKeyConfiguredBare", benchmark::newKeyConfiguredBare);
		paths.put("newKeyConfigured", benchmark::newKeyConfigured);
		paths.put("replayConfigured", benchmark::replayConfigured);
		paths.put("newKeyBare", benchmark::newKeyBare);
		paths.put("newKeyFiltered", benchmark::newKeyFiltered);
		paths.put("replayFiltered", benchmark::replayFiltered);
		paths.put("newKeyMemory", benchmark::newKeyMemory);
		paths.put("newKeyMemoryEncrypted", benchmark::newKeyMemoryEncrypted);
		paths.put("replayMemory", benchmark::replayMemory);
		paths.put("replayMemoryEncrypted", benchmark::replayMemoryEncrypted);
		paths.put("reactiveNewKeyBare", reactive::newKeyBare);
		paths.put("reactiveNewKey", reactive::newKeyEngine);
		paths.keySet().removeIf((name) -> !name.matches(picked));
		try {
			reactive.start();
			for (Map.Entry<String, Operation> path : paths.entrySet()) {
				for (int pass = 1; pass <= 5; pass++) {
					Cost warm = run(path.getValue(), threads, warmUp);
					System.out.printf("warm-up %s pass %d: JIT %.0f %% of the process's CPU%n", path.getKey(), pass,
							100 * warm.jitShare());
					if (warm.jitShare() <= 0.02) {
						break;
					}
				}
			}
			Map<String, Cost[]> results = new LinkedHashMap<>();
			for (int round = 0; round < rounds; round++) {
				for (Map.Entry<String, Operation> path : paths.entrySet()) {
					results.computeIfAbsent(path.getKey(), (name) -> new Cost[rounds])[round] = run(path.getValue(),
							threads, seconds);
				}
			}
			System.out.printf("%-22s %22s %20s %8s   (%d thread(s), medians of %d rounds of %d s)%n", "path",
					"process less JIT µs/op", "op threads µs/op", "JIT %", threads, rounds, seconds);
			for (Map.Entry<String, Cost[]> result : results.entrySet()) {
				Cost[] costs = result.getValue();
				System.out.printf("%-22s %22.2f %20.2f %8.1f%n", result.getKey(), median(costs, Cost::processLessJit),
						median(costs, Cost::operatingThreads), 100 * median(costs, Cost::jitShare));
			}
		}
		finally {
			benchmark.stop();
			reactive.stop();
		}
	}

	private static double median(Cost[] costs, java.util.function.ToDoubleFunction<Cost> figure) {
		double[] values = java.util.Arrays.stream(costs).mapToDouble(figure).sorted().toArray();
		return values[values.length / 2];
	}

	/** The CPU per operation of one run, in microseconds. */
	private record Cost(double processLessJit, double operatingThreads, double jitShare) {
	}

	/** {@return the CPU per operation over a run of {@code seconds} on {@code threads} threads} */
	private static Cost run(Operation operation, int threads, int seconds) throws InterruptedException {
		OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
		java.lang.management.ThreadMXBean threadBean = ManagementFactory.getThreadMXBean();
		AtomicBoolean running = new AtomicBoolean(true);
		LongAdder operations = new LongAdder();
		LongAdder operatingNanos = new LongAdder();
		CountDownLatch done = new CountDownLatch(threads);
		long cpuBefore = os.getProcessCpuTime();
		long jitBefore = jitCpuNanos();
		for (int i = 0; i < threads; i++) {
			Thread thread = new Thread(() -> {
				long started = threadBean.getCurrentThreadCpuTime();
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
					operatingNanos.add(threadBean.getCurrentThreadCpuTime() - started);
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
		long jit = jitCpuNanos() - jitBefore;
		double count = Math.max(1, operations.sum());
		return new Cost((cpu - jit) / 1000.0 / count, operatingNanos.sum() / 1000.0 / count,
				(cpu > 0) ? (double) jit / cpu : 0);
	}

	/** CPU time of the JIT compiler threads ({@code C1/C2 CompilerThre...}), 0 where /proc is not there. */
	private static long jitCpuNanos() {
		long ticks = 0;
		try (var tasks = Files.list(Path.of("/proc/self/task"))) {
			for (Path task : (Iterable<Path>) tasks::iterator) {
				String stat;
				try {
					stat = Files.readString(task.resolve("stat"));
				}
				catch (IOException ex) {
					continue;
				}
				int nameEnd = stat.lastIndexOf(')');
				if (!stat.substring(0, nameEnd).contains("CompilerThre")) {
					continue;
				}
				String[] fields = stat.substring(nameEnd + 2).split(" ");
				// After the name: state, ppid, ... utime is the 12th, stime the 13th.
				ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
			}
		}
		catch (IOException ex) {
			return 0;
		}
		// USER_HZ: 100 on Linux (sysconf(_SC_CLK_TCK), which Java cannot ask).
		return ticks * 10_000_000L;
	}

	@FunctionalInterface
	private interface Operation {

		Object run() throws Exception;

	}

}
