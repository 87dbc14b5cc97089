package dev.modelgate.idempotency.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
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
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.util.StreamUtils;

import dev.modelgate.idempotency.redis.RedisIdempotencyStore;

/**
 * One script round trip ({@code release.lua} on a key that holds nothing: one {@code HGET} inside
 * Redis) on each client, three ways: Spring Data's {@code RedisTemplate.execute(script, ...)} (the
 * store before issue 15), the store as it is ({@code release}), and the client on its own, outside
 * Spring (the floor: Lettuce's synchronous API on a connection of its own, Jedis from a
 * {@code JedisPool}). From one thread and from 16. Redis at 127.0.0.1, port {@code -Dredis.port}
 * (6379).
 */
@State(Scope.Benchmark)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RedisRoundTripBenchmark {

	private static final int PORT = Integer.getInteger("redis.port", 6379);

	private static final byte[] TOKEN = "token".getBytes(StandardCharsets.US_ASCII);

	@Param({ "lettuce", "jedis" })
	public String client;

	@Param({ "template", "store", "floor" })
	public String path;

	private final RedisScript<Boolean> release = RedisScript.of(script("release.lua"), Boolean.class);

	private RedisConnectionFactory connectionFactory;

	private RedisTemplate<byte[], byte[]> template;

	private RedisIdempotencyStore store;

	private RedisClient lettuce;

	private StatefulRedisConnection<byte[], byte[]> lettuceConnection;

	private JedisPool jedis;

	@Setup(Level.Trial)
	public void start() {
		RedisStandaloneConfiguration redis = new RedisStandaloneConfiguration("127.0.0.1", PORT);
		if ("lettuce".equals(this.client)) {
			LettuceConnectionFactory factory = new LettuceConnectionFactory(redis,
					LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
			factory.afterPropertiesSet();
			factory.start();
			this.connectionFactory = factory;
			this.lettuce = RedisClient.create(RedisURI.create("127.0.0.1", PORT));
			this.lettuceConnection = this.lettuce.connect(ByteArrayCodec.INSTANCE);
		}
		else {
			JedisPoolConfig pool = new JedisPoolConfig();
			pool.setMaxTotal(64);
			pool.setMaxIdle(64);
			JedisConnectionFactory factory = new JedisConnectionFactory(redis,
					JedisClientConfiguration.builder().usePooling().poolConfig(pool).build());
			factory.afterPropertiesSet();
			factory.start();
			this.connectionFactory = factory;
			this.jedis = new JedisPool(pool, "127.0.0.1", PORT);
		}
		this.template = new RedisTemplate<>();
		this.template.setConnectionFactory(this.connectionFactory);
		this.template.setDefaultSerializer(RedisSerializer.byteArray());
		this.template.afterPropertiesSet();
		this.store = new RedisIdempotencyStore(this.connectionFactory, "modelgate:benchmark:", Duration.ofSeconds(2));
	}

	@TearDown(Level.Trial)
	public void stop() throws Exception {
		this.store.close();
		if (this.lettuce != null) {
			this.lettuceConnection.close();
			this.lettuce.shutdown();
		}
		if (this.jedis != null) {
			this.jedis.close();
		}
		((org.springframework.beans.factory.DisposableBean) this.connectionFactory).destroy();
	}

	@Benchmark
	@Threads(1)
	public boolean roundTrip() {
		return call();
	}

	@Benchmark
	@Threads(16)
	public boolean roundTrip16Threads() {
		return call();
	}

	private boolean call() {
		String scope = "rt-" + ThreadLocalRandom.current().nextInt(1_000_000);
		return switch (this.path) {
			case "template" -> this.template.execute(this.release,
					List.of(("modelgate:benchmark:" + scope).getBytes(StandardCharsets.UTF_8)), TOKEN);
			case "store" -> this.store.release(scope, "token");
			default -> floor(("modelgate:benchmark:" + scope).getBytes(StandardCharsets.UTF_8));
		};
	}

	private boolean floor(byte[] key) {
		if (this.lettuceConnection != null) {
			Object answer;
			try {
				answer = this.lettuceConnection.sync()
					.evalsha(this.release.getSha1(), ScriptOutputType.BOOLEAN, new byte[][] { key }, TOKEN);
			}
			catch (RedisNoScriptException ex) {
				answer = this.lettuceConnection.sync()
					.eval(this.release.getScriptAsString(), ScriptOutputType.BOOLEAN, new byte[][] { key }, TOKEN);
			}
			return Boolean.TRUE.equals(answer);
		}
		try (Jedis connection = this.jedis.getResource()) {
			Object answer;
			try {
				answer = connection.evalsha(this.release.getSha1().getBytes(StandardCharsets.US_ASCII), 1, key, TOKEN);
			}
			catch (JedisNoScriptException ex) {
				answer = connection.eval(this.release.getScriptAsString().getBytes(StandardCharsets.UTF_8), 1, key,
						TOKEN);
			}
			return Long.valueOf(1).equals(answer);
		}
	}

	private static String script(String name) {
		try (InputStream in = RedisIdempotencyStore.class.getClassLoader()
			.getResourceAsStream("META-INF/modelgate/scripts/" + name)) {
			return StreamUtils.copyToString(in, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
