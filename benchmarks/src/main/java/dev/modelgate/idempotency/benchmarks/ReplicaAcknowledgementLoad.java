package dev.modelgate.idempotency.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;
import dev.modelgate.idempotency.redis.ReplicaAcknowledgement;

/**
 * New keys ({@code begin} + {@code complete}, 1 KiB outcome) on a Redis primary with one replica,
 * without and with a replica acknowledgement, interleaved (a b, then b a, ...) so that drift on a
 * shared machine favours neither; prints one Markdown row per mode and concurrency with the medians
 * of the rounds. Run: {@code java -cp benchmarks/target/benchmarks.jar
 * dev.modelgate.idempotency.benchmarks.ReplicaAcknowledgementLoad [seconds per run] [rounds]}.
 */
public final class ReplicaAcknowledgementLoad {

	private static final int[] CONCURRENCY = { 1, 16, 64 };

	private final StoredOutcome outcome = new StoredOutcome(StoredOutcome.Kind.RESPONSE, new byte[1024]);

	private ReplicaAcknowledgementLoad() {
	}

	public static void main(String[] args) throws InterruptedException {
		Duration run = Duration.ofSeconds((args.length > 0) ? Integer.parseInt(args[0]) : 5);
		int rounds = (args.length > 1) ? Integer.parseInt(args[1]) : 3;
		try (PrimaryAndReplica redis = PrimaryAndReplica.start()) {
			LettuceConnectionFactory factory = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration("127.0.0.1", redis.primaryPort()),
					LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
			factory.afterPropertiesSet();
			factory.start();
			RedisIdempotencyStore[] stores = { new RedisIdempotencyStore(factory, "bench:", Duration.ofSeconds(2)),
					new RedisIdempotencyStore(factory, "bench:", Duration.ofSeconds(2),
							new ReplicaAcknowledgement(1, Duration.ofMillis(500))) };
			ReplicaAcknowledgementLoad load = new ReplicaAcknowledgementLoad();
			System.out.println("| concurrency | acknowledgements | new keys/s | p50 µs | p99 µs | throughput ratio |");
			System.out.println("|---|---|---|---|---|---|");
			for (int threads : CONCURRENCY) {
				load.measure(stores[0], threads, Duration.ofSeconds(2));
				load.measure(stores[1], threads, Duration.ofSeconds(2));
				List<List<double[]>> results = List.of(new ArrayList<>(), new ArrayList<>());
				for (int round = 0; round < rounds; round++) {
					for (int i = 0; i < 2; i++) {
						int mode = (round % 2 == 0) ? i : 1 - i;
						results.get(mode).add(load.measure(stores[mode], threads, run));
					}
				}
				double base = median(results.get(0), 0);
				for (int mode = 0; mode < 2; mode++) {
					System.out.println(String.format(Locale.ROOT, "| %d | %s | %.0f | %.0f | %.0f | %.2f |", threads,
							(mode == 0) ? "0 (off)" : "1", median(results.get(mode), 0), median(results.get(mode), 1),
							median(results.get(mode), 2), median(results.get(mode), 0) / base));
				}
			}
			Arrays.stream(stores).forEach(RedisIdempotencyStore::close);
			factory.destroy();
		}
	}

	/** {@return new keys per second, p50 and p99 in µs} */
	private double[] measure(RedisIdempotencyStore store, int threads, Duration duration) throws InterruptedException {
		AtomicBoolean stop = new AtomicBoolean();
		List<long[]> latencies = new ArrayList<>();
		int[] counts = new int[threads];
		CountDownLatch done = new CountDownLatch(threads);
		for (int t = 0; t < threads; t++) {
			long[] mine = new long[200_000];
			latencies.add(mine);
			int index = t;
			Thread thread = new Thread(() -> {
				int n = 0;
				while (!stop.get() && n < mine.length) {
					long start = System.nanoTime();
					String scope = UUID.randomUUID().toString();
					String token = UUID.randomUUID().toString();
					store.begin(scope, "fp", token, Duration.ofSeconds(30));
					store.complete(scope, token, this.outcome, Duration.ofSeconds(60));
					mine[n++] = System.nanoTime() - start;
				}
				counts[index] = n;
				done.countDown();
			});
			thread.start();
		}
		long start = System.nanoTime();
		Thread.sleep(duration.toMillis());
		stop.set(true);
		done.await();
		double seconds = (System.nanoTime() - start) / 1e9;
		long total = Arrays.stream(counts).sum();
		long[] all = new long[(int) total];
		int at = 0;
		for (int t = 0; t < threads; t++) {
			System.arraycopy(latencies.get(t), 0, all, at, counts[t]);
			at += counts[t];
		}
		Arrays.sort(all);
		return new double[] { total / seconds, all[all.length / 2] / 1000.0, all[(int) (all.length * 0.99)] / 1000.0 };
	}

	private static double median(List<double[]> runs, int column) {
		double[] values = runs.stream().mapToDouble((run) -> run[column]).sorted().toArray();
		return values[values.length / 2];
	}

}
