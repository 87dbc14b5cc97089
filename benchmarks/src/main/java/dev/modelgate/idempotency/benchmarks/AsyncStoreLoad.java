package dev.modelgate.idempotency.benchmarks;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.internal.BlockingIdempotencyStoreAdapter;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencySchema;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencyStore;
import dev.modelgate.idempotency.redis.AsyncRedisIdempotencyStore;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;

/**
 * New keys ({@code begin} + {@code complete}, 1 KiB outcome) from a non-blocking caller, side by side in
 * one run: for Redis, the blocking store called from a thread per call (the servlet shape), the blocking
 * store on the bounded pool that reactive applications get without an asynchronous store
 * ({@link BlockingIdempotencyStoreAdapter}, 16 threads) and the asynchronous store (Lettuce's asynchronous
 * API); for PostgreSQL, the JDBC store from a thread per call and on the bounded pool. A non-blocking caller keeps
 * {@code concurrency} new keys in flight, each started when the one before it finished. Modes are
 * interleaved (a b c, then c b a, ...) so that drift on a shared machine favours none; one Markdown row
 * per mode and concurrency with the medians of the rounds, the JVM's CPU time per new key, and ratios
 * to the bounded pool. Run: {@code java -cp benchmarks/target/benchmarks.jar
 * dev.modelgate.idempotency.benchmarks.AsyncStoreLoad [seconds per run] [rounds] [redis|postgresql|both]}.
 * Redis is a {@code redis-server} of the benchmark's own; PostgreSQL the one at 127.0.0.1:5432 (user
 * postgres, database test), in a table of the benchmark's own, dropped after it.
 */
public final class AsyncStoreLoad {

	private static final int[] CONCURRENCY = { 1, 16, 64 };

	private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(2);

	private static final int POOL_THREADS = 16;

	private static final int MAX_PER_CHAIN = 400_000;

	private static final StoredOutcome OUTCOME = new StoredOutcome(StoredOutcome.Kind.RESPONSE, new byte[1024]);

	private static final com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory
		.getOperatingSystemMXBean();

	private AsyncStoreLoad() {
	}

	public static void main(String[] args) throws Exception {
		Duration run = Duration.ofSeconds((args.length > 0) ? Integer.parseInt(args[0]) : 5);
		int rounds = (args.length > 1) ? Integer.parseInt(args[1]) : 3;
		String which = (args.length > 2) ? args[2] : "both";
		System.out.println("| store | caller | concurrency | new keys/s | p50 µs | p99 µs | JVM CPU µs per key | errors "
				+ "| throughput ÷ pool | CPU ÷ pool |");
		System.out.println("|---|---|---|---|---|---|---|---|---|---|");
		if (!which.equals("postgresql")) {
			redis(run, rounds);
		}
		if (!which.equals("redis")) {
			postgresql(run, rounds);
		}
	}

	private static void redis(Duration run, int rounds) throws Exception {
		try (PrimaryAndReplica redis = PrimaryAndReplica.startPrimaryOnly()) {
			LettuceConnectionFactory factory = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration("127.0.0.1", redis.primaryPort()),
					LettuceClientConfiguration.builder().commandTimeout(OPERATION_TIMEOUT).build());
			factory.afterPropertiesSet();
			factory.start();
			RedisIdempotencyStore blocking = new RedisIdempotencyStore(factory, "bench:");
			try (BlockingIdempotencyStoreAdapter pooled = BlockingIdempotencyStoreAdapter.create(blocking,
					OPERATION_TIMEOUT, POOL_THREADS, 256)) {
				List<Mode> modes = List.of(new Mode("Redis", "thread per call, blocking store", blocking, null),
						new Mode("Redis", "bounded pool (16), blocking store", null, pooled),
						new Mode("Redis", "async store (Lettuce async API)", null,
								new AsyncRedisIdempotencyStore(factory, "bench:", OPERATION_TIMEOUT)));
				measure(modes, 1, run, rounds);
			}
			factory.destroy();
		}
	}

	private static void postgresql(Duration run, int rounds) throws Exception {
		String table = "modelgate_bench_async_" + UUID.randomUUID().toString().substring(0, 8);
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:postgresql://127.0.0.1:5432/test");
		config.setUsername("postgres");
		config.setMaximumPoolSize(POOL_THREADS);
		try (HikariDataSource dataSource = new HikariDataSource(config)) {
			JdbcIdempotencySchema.create(dataSource, table);
			try {
				JdbcIdempotencyStore blocking = new JdbcIdempotencyStore(new JdbcTemplate(dataSource), table);
				try (BlockingIdempotencyStoreAdapter pooled = BlockingIdempotencyStoreAdapter.create(blocking,
						OPERATION_TIMEOUT, POOL_THREADS, 256)) {
					List<Mode> modes = List.of(
							new Mode("PostgreSQL", "thread per call, JDBC store (Hikari 16)", blocking, null),
							new Mode("PostgreSQL", "bounded pool (16), JDBC store (Hikari 16)", null, pooled));
					measure(modes, 1, run, rounds);
				}
			}
			finally {
				new JdbcTemplate(dataSource).execute("DROP TABLE IF EXISTS " + table + "_events, " + table);
			}
		}
	}

	/** Prints a row per mode and concurrency, with ratios to {@code modes.get(reference)}. */
	private static void measure(List<Mode> modes, int reference, Duration run, int rounds) throws Exception {
		for (int concurrency : CONCURRENCY) {
			for (Mode mode : modes) {
				mode.run(concurrency, run);
			}
			List<List<double[]>> results = new ArrayList<>();
			modes.forEach((mode) -> results.add(new ArrayList<>()));
			for (int round = 0; round < rounds; round++) {
				for (int i = 0; i < modes.size(); i++) {
					int m = (round % 2 == 0) ? i : modes.size() - 1 - i;
					results.get(m).add(modes.get(m).run(concurrency, run));
				}
			}
			double baseThroughput = median(results.get(reference), 0);
			double baseCpu = median(results.get(reference), 3);
			for (int m = 0; m < modes.size(); m++) {
				List<double[]> r = results.get(m);
				System.out.println(String.format(Locale.ROOT,
						"| %s | %s | %d | %.0f | %.0f | %.0f | %.1f | %.0f | %.2f | %.2f |", modes.get(m).store(),
						modes.get(m).caller(), concurrency, median(r, 0), median(r, 1), median(r, 2), median(r, 3),
						r.stream().mapToDouble((x) -> x[4]).sum(), median(r, 0) / baseThroughput,
						median(r, 3) / baseCpu));
			}
		}
	}

	private static double median(List<double[]> runs, int column) {
		double[] values = runs.stream().mapToDouble((run) -> run[column]).sorted().toArray();
		return values[values.length / 2];
	}

	/**
	 * One way of calling a store: {@code blocking} from threads of its own, or {@code async} from a
	 * non-blocking caller.
	 */
	private record Mode(String store, String caller, IdempotencyStore blocking, AsyncIdempotencyStore async) {

		/** {@return new keys per second, p50 and p99 in µs, JVM CPU µs per key, errors} */
		double[] run(int concurrency, Duration duration) throws InterruptedException {
			return (this.blocking != null) ? threads(this.blocking, concurrency, duration)
					: chains(this.async, concurrency, duration);
		}

	}

	private static double[] threads(IdempotencyStore store, int threads, Duration duration)
			throws InterruptedException {
		AtomicBoolean stop = new AtomicBoolean();
		AtomicLong errors = new AtomicLong();
		long[][] latencies = new long[threads][MAX_PER_CHAIN];
		int[] counts = new int[threads];
		CountDownLatch done = new CountDownLatch(threads);
		long cpu = os.getProcessCpuTime();
		long start = System.nanoTime();
		for (int t = 0; t < threads; t++) {
			int index = t;
			Thread thread = new Thread(() -> {
				while (!stop.get() && counts[index] < MAX_PER_CHAIN) {
					long began = System.nanoTime();
					String scope = UUID.randomUUID().toString();
					String token = UUID.randomUUID().toString();
					try {
						store.begin(scope, "fp", token, Duration.ofSeconds(30));
						store.complete(scope, token, OUTCOME, Duration.ofSeconds(60));
						latencies[index][counts[index]++] = System.nanoTime() - began;
					}
					catch (RuntimeException ex) {
						errors.incrementAndGet();
					}
				}
				done.countDown();
			});
			thread.start();
		}
		Thread.sleep(duration.toMillis());
		stop.set(true);
		done.await();
		return summary(latencies, counts, System.nanoTime() - start, os.getProcessCpuTime() - cpu, errors.get());
	}

	private static double[] chains(AsyncIdempotencyStore store, int inFlight, Duration duration)
			throws InterruptedException {
		Chains chains = new Chains(store, inFlight);
		long cpu = os.getProcessCpuTime();
		long start = System.nanoTime();
		for (int i = 0; i < inFlight; i++) {
			chains.next(i);
		}
		Thread.sleep(duration.toMillis());
		chains.stop.set(true);
		chains.done.await();
		return summary(chains.latencies, chains.counts, System.nanoTime() - start, os.getProcessCpuTime() - cpu,
				chains.errors.get());
	}

	/** {@code inFlight} sequences of new keys, each key started when the one before it finished. */
	private static final class Chains {

		private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

		final AsyncIdempotencyStore store;

		final AtomicBoolean stop = new AtomicBoolean();

		final AtomicLong errors = new AtomicLong();

		final long[][] latencies;

		final int[] counts;

		final CountDownLatch done;

		Chains(AsyncIdempotencyStore store, int inFlight) {
			this.store = store;
			this.latencies = new long[inFlight][MAX_PER_CHAIN];
			this.counts = new int[inFlight];
			this.done = new CountDownLatch(inFlight);
		}

		void next(int chain) {
			int[] depth = DEPTH.get();
			// A future already complete runs its continuation on the caller's stack: hand over before it grows deep.
			if (depth[0] > 64) {
				ForkJoinPool.commonPool().execute(() -> next(chain));
				return;
			}
			depth[0]++;
			try {
				if (this.stop.get() || this.counts[chain] == MAX_PER_CHAIN) {
					this.done.countDown();
					return;
				}
				long began = System.nanoTime();
				String scope = UUID.randomUUID().toString();
				String token = UUID.randomUUID().toString();
				this.store.begin(scope, "fp", token, Duration.ofSeconds(30))
					.thenCompose((begun) -> this.store.complete(scope, token, OUTCOME, Duration.ofSeconds(60)))
					.whenComplete((completed, ex) -> {
						if (ex != null) {
							this.errors.incrementAndGet();
						}
						else {
							this.latencies[chain][this.counts[chain]++] = System.nanoTime() - began;
						}
						next(chain);
					});
			}
			finally {
				depth[0]--;
			}
		}

	}

	private static double[] summary(long[][] latencies, int[] counts, long elapsedNanos, long cpuNanos,
			long errors) {
		long total = Arrays.stream(counts).sum();
		long[] all = new long[(int) total];
		int at = 0;
		for (int t = 0; t < counts.length; t++) {
			System.arraycopy(latencies[t], 0, all, at, counts[t]);
			at += counts[t];
		}
		Arrays.sort(all);
		double p50 = (total > 0) ? all[all.length / 2] / 1000.0 : 0;
		double p99 = (total > 0) ? all[(int) (all.length * 0.99)] / 1000.0 : 0;
		return new double[] { total / (elapsedNanos / 1e9), p50, p99, (total > 0) ? cpuNanos / 1000.0 / total : 0,
				errors };
	}

}
