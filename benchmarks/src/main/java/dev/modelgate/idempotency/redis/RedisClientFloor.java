package dev.modelgate.idempotency.redis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;
import redis.clients.jedis.exceptions.JedisNoScriptException;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.script.RedisScript;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * What a new key costs on Redis at the client alone: {@code begin.lua} then {@code complete.lua} with
 * a 900-byte outcome, the arguments the store sends, in a loop from {@code threads} threads, with the
 * process's CPU time (all threads but the JIT compilers', from {@code /proc/self}) and each pair's
 * latency. Two paths:
 * {@code floor}, the client's own API (Lettuce's synchronous API on one shared connection, as Spring
 * Data shares it; Jedis from a pool of 16), and {@code store}, {@link RedisIdempotencyStore} on Spring
 * Data's connection factory with the same client. {@code benchmarks/load/redis-floor.sh} runs it
 * beside the sample app.
 *
 * <pre>java -cp benchmarks.jar dev.modelgate.idempotency.redis.RedisClientFloor lettuce|jedis floor|store THREADS WARMUP_SECONDS SECONDS</pre>
 *
 * prints one line: {@code RESULT client path threads keys keys-per-second cpu-us-per-key p50-us}.
 */
public final class RedisClientFloor {

	private static final String HOST = System.getProperty("redis.host", "127.0.0.1");

	private static final int PORT = Integer.getInteger("redis.port", 6379);

	private static final String PREFIX = "modelgate:floor:";

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final Duration TTL = Duration.ofSeconds(60);

	private static final StoredOutcome OUTCOME = new StoredOutcome(StoredOutcome.Kind.RESPONSE,
			"x".repeat(900).getBytes(StandardCharsets.US_ASCII));

	private RedisClientFloor() {
	}

	public static void main(String[] args) throws Exception {
		String client = args[0];
		String path = args[1];
		int threads = Integer.parseInt(args[2]);
		long warmup = Long.parseLong(args[3]);
		long seconds = Long.parseLong(args[4]);
		RedisRecords records = new RedisRecords(PREFIX);
		try (Pair pair = open(client, path, records)) {
			Loop loop = new Loop(threads, pair);
			loop.runFor(Duration.ofSeconds(warmup));
			long cpuBefore = processCpuNanos();
			Loop.Result result = loop.runFor(Duration.ofSeconds(seconds));
			long cpu = processCpuNanos() - cpuBefore;
			System.out.printf("RESULT %s %s %d %d %.0f %.1f %.1f%n", client, path, threads, result.keys(),
					result.keys() / (double) seconds, cpu / 1000.0 / result.keys(), result.p50Nanos() / 1000.0);
		}
	}

	/** One new key: {@code begin}, then {@code complete}. */
	private interface Pair extends AutoCloseable {

		void run(String scope, String fingerprint, String token);

		@Override
		void close() throws Exception;

	}

	private static Pair open(String client, String path, RedisRecords records) {
		RedisStandaloneConfiguration redis = new RedisStandaloneConfiguration(HOST, PORT);
		if ("store".equals(path)) {
			RedisConnectionFactory factory = "lettuce".equals(client) ? lettuceFactory(redis) : jedisFactory(redis);
			RedisIdempotencyStore store = new RedisIdempotencyStore(factory, PREFIX, Duration.ofSeconds(2));
			return new Pair() {
				@Override
				public void run(String scope, String fingerprint, String token) {
					BeginResult begun = store.begin(scope, fingerprint, token, LEASE);
					if (begun.outcome() != BeginResult.Outcome.ACQUIRED || !store.complete(scope, token, OUTCOME, TTL)) {
						throw new IllegalStateException("not a new key: " + begun);
					}
				}

				@Override
				public void close() throws Exception {
					store.close();
					((org.springframework.beans.factory.DisposableBean) factory).destroy();
				}
			};
		}
		if ("lettuce".equals(client)) {
			RedisClient lettuce = RedisClient.create(RedisURI.create(HOST, PORT));
			StatefulRedisConnection<byte[], byte[]> connection = lettuce.connect(ByteArrayCodec.INSTANCE);
			return new RawPair(records, (call) -> call.lettuce(connection), () -> {
				connection.close();
				lettuce.shutdown();
			});
		}
		JedisPoolConfig config = new JedisPoolConfig();
		config.setMaxTotal(16);
		config.setMaxIdle(16);
		JedisPool pool = new JedisPool(config, HOST, PORT);
		return new RawPair(records, (call) -> {
			try (Jedis jedis = pool.getResource()) {
				call.jedis(jedis);
			}
		}, pool::close);
	}

	private static RedisConnectionFactory lettuceFactory(RedisStandaloneConfiguration redis) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(redis,
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	private static RedisConnectionFactory jedisFactory(RedisStandaloneConfiguration redis) {
		JedisPoolConfig pool = new JedisPoolConfig();
		pool.setMaxTotal(16);
		pool.setMaxIdle(16);
		JedisConnectionFactory factory = new JedisConnectionFactory(redis,
				JedisClientConfiguration.builder().usePooling().poolConfig(pool).build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/** The two scripts on the client's own API, with the arguments the store sends. */
	private static final class RawPair implements Pair {

		private final RedisRecords records;

		private final Consumer<Call> calls;

		private final Runnable closing;

		RawPair(RedisRecords records, Consumer<Call> calls, Runnable closing) {
			this.records = records;
			this.calls = calls;
			this.closing = closing;
		}

		@Override
		@SuppressWarnings("unchecked")
		public void run(String scope, String fingerprint, String token) {
			byte[][] keys = this.records.keys(scope);
			Call begin = new Call(this.records.begin, ScriptOutputType.MULTI, keys,
					RedisRecords.beginArgs(fingerprint, token, LEASE));
			this.calls.accept(begin);
			if (!RedisRecords.isAcquired((List<Object>) begin.answer)) {
				throw new IllegalStateException("not a new key");
			}
			Call complete = new Call(this.records.complete, ScriptOutputType.BOOLEAN, keys,
					RedisRecords.completeArgs(token, OUTCOME, TTL));
			this.calls.accept(complete);
			if (!Boolean.TRUE.equals(complete.answer) && !Long.valueOf(1).equals(complete.answer)) {
				throw new IllegalStateException("complete refused: " + complete.answer);
			}
		}

		@Override
		public void close() {
			this.closing.run();
		}

	}

	/** One {@code EVALSHA}, {@code EVAL} when Redis does not know the script yet. */
	private static final class Call {

		private final RedisScript<?> script;

		private final ScriptOutputType type;

		private final byte[][] keys;

		private final byte[][] args;

		private Object answer;

		Call(RedisScript<?> script, ScriptOutputType type, byte[][] keys, byte[][] args) {
			this.script = script;
			this.type = type;
			this.keys = keys;
			this.args = args;
		}

		void lettuce(StatefulRedisConnection<byte[], byte[]> connection) {
			try {
				this.answer = connection.sync().evalsha(this.script.getSha1(), this.type, this.keys, this.args);
			}
			catch (RedisNoScriptException ex) {
				this.answer = connection.sync().eval(this.script.getScriptAsString(), this.type, this.keys, this.args);
			}
		}

		void jedis(Jedis jedis) {
			List<byte[]> keys = Arrays.asList(this.keys);
			List<byte[]> args = Arrays.asList(this.args);
			try {
				this.answer = jedis.evalsha(this.script.getSha1().getBytes(StandardCharsets.US_ASCII), keys, args);
			}
			catch (JedisNoScriptException ex) {
				this.answer = jedis.eval(this.script.getScriptAsString().getBytes(StandardCharsets.UTF_8), keys, args);
			}
		}

	}

	/** {@code threads} threads running new keys back to back, started and stopped together. */
	private static final class Loop {

		private final int threads;

		private final Pair pair;

		Loop(int threads, Pair pair) {
			this.threads = threads;
			this.pair = pair;
		}

		record Result(long keys, long p50Nanos) {
		}

		Result runFor(Duration duration) throws InterruptedException {
			AtomicBoolean running = new AtomicBoolean(true);
			AtomicReference<RuntimeException> failure = new AtomicReference<>();
			CountDownLatch start = new CountDownLatch(1);
			long[][] latencies = new long[this.threads][];
			int[] counts = new int[this.threads];
			Thread[] workers = new Thread[this.threads];
			for (int t = 0; t < this.threads; t++) {
				int index = t;
				workers[t] = new Thread(() -> {
					long[] own = new long[1 << 20];
					int n = 0;
					HexFormat hex = HexFormat.of();
					byte[] random = new byte[32];
					try {
						start.await();
						while (running.get()) {
							ThreadLocalRandom.current().nextBytes(random);
							String scope = hex.formatHex(random);
							long began = System.nanoTime();
							this.pair.run(scope, scope, UUID.randomUUID().toString());
							own[n & (own.length - 1)] = System.nanoTime() - began;
							n++;
						}
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
					catch (RuntimeException ex) {
						failure.compareAndSet(null, ex);
						running.set(false);
					}
					latencies[index] = own;
					counts[index] = n;
				}, "floor-" + t);
				workers[t].start();
			}
			start.countDown();
			Thread.sleep(duration.toMillis());
			running.set(false);
			long keys = 0;
			int kept = 0;
			for (int t = 0; t < this.threads; t++) {
				workers[t].join();
				keys += counts[t];
				kept += Math.min(counts[t], latencies[t].length);
			}
			if (failure.get() != null) {
				throw failure.get();
			}
			long[] all = new long[kept];
			int at = 0;
			for (int t = 0; t < this.threads; t++) {
				int n = Math.min(counts[t], latencies[t].length);
				System.arraycopy(latencies[t], 0, all, at, n);
				at += n;
			}
			Arrays.sort(all);
			return new Result(keys, (all.length > 0) ? all[all.length / 2] : 0);
		}

	}

	/**
	 * The CPU time of this process in nanoseconds, all threads but the JIT compilers', as
	 * {@code redis-floor.sh} counts the app's.
	 */
	private static long processCpuNanos() throws IOException {
		long ticks = ticks(Files.readString(Path.of("/proc/self/stat")));
		try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
			for (Path task : tasks) {
				try {
					String stat = Files.readString(task.resolve("stat"));
					if (stat.contains("CompilerThre")) {
						ticks -= ticks(stat);
					}
				}
				catch (NoSuchFileException ex) {
					// The thread ended meanwhile.
				}
			}
		}
		return ticks * (1_000_000_000L / clockTicks());
	}

	/** utime + stime of a {@code stat} line; the name in parentheses may hold spaces. */
	private static long ticks(String stat) {
		String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
		return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
	}

	private static long clockTicks() {
		return Long.getLong("clock.ticks", 100);
	}

}
