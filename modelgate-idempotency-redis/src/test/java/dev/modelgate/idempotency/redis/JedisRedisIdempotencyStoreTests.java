package dev.modelgate.idempotency.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPoolConfig;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.test.IdempotencyStoreContractTests;
import dev.modelgate.idempotency.testsupport.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The store contract on a Jedis connection factory (scripts sent with Jedis's own {@code evalsha}
 * on the calling thread), and what is particular to it: a recorded response too large to write
 * without blocking goes through the store's own thread and still round-trips byte for byte,
 * errors are Spring Data's, and concurrent callers share the pool.
 */
@Tag("store")
class JedisRedisIdempotencyStoreTests extends IdempotencyStoreContractTests {

	private static final String PREFIX = "modelgate:test:jedis:" + UUID.randomUUID() + ":";

	private static JedisConnectionFactory connectionFactory;

	private static StringRedisTemplate redis;

	private final List<RedisIdempotencyStore> stores = new ArrayList<>();

	@BeforeAll
	static void connect() {
		connectionFactory = jedis(RedisTestServer.port(), 16);
		redis = new StringRedisTemplate(connectionFactory);
	}

	@AfterAll
	static void deleteRecordsAndDisconnect() {
		Set<String> keys = redis.keys(PREFIX + "*");
		if (!keys.isEmpty()) {
			redis.delete(keys);
		}
		connectionFactory.destroy();
	}

	@AfterEach
	void closeStores() {
		this.stores.forEach(RedisIdempotencyStore::close);
	}

	@Override
	protected IdempotencyStore createStore() {
		RedisIdempotencyStore store = new RedisIdempotencyStore(connectionFactory, PREFIX, Duration.ofSeconds(2));
		this.stores.add(store);
		return store;
	}

	@Test
	void sendsScriptsOnJedisOwnConnection() {
		assertThat(((RedisIdempotencyStore) store()).scriptCalls()).isEqualTo("Jedis connection");
	}

	@Test
	void responseLargerThanADirectWriteIsRecordedAndReplayedByteForByte() {
		byte[] body = new byte[JedisScriptCalls.DIRECT_WRITE_LIMIT * 8 + 3];
		Arrays.fill(body, (byte) 0xA5);
		body[body.length - 1] = 0;
		StoredOutcome large = new StoredOutcome(StoredOutcome.Kind.RESPONSE, body);
		String scope = scopeHash();
		String token = token();
		store().begin(scope, "fp", token, LONG);

		assertThat(store().complete(scope, token, large, LONG)).isTrue();
		BeginResult replay = store().begin(scope, "fp", token(), LONG);
		assertThat(replay.outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(replay.stored().payload()).isEqualTo(body);
	}

	@Test
	void wrongTypeRecordIsReportedAsStoreFailureWithSpringDataCause() {
		String scope = scopeHash();
		redis.opsForValue().set(PREFIX + scope, "not a record", Duration.ofMinutes(1));

		assertThatExceptionOfType(IdempotencyStoreException.class)
			.isThrownBy(() -> store().begin(scope, "fp", token(), LONG))
			.withCauseInstanceOf(DataAccessException.class);
	}

	@Test
	void unreachableServerIsReportedAsStoreFailure() {
		JedisConnectionFactory closedPort = jedis(1, 2);
		try {
			IdempotencyStore store = new RedisIdempotencyStore(closedPort, PREFIX, Duration.ofSeconds(2));
			assertThatExceptionOfType(IdempotencyStoreException.class)
				.isThrownBy(() -> store.begin(scopeHash(), "fp", token(), LONG))
				.withCauseInstanceOf(DataAccessException.class);
		}
		finally {
			closedPort.destroy();
		}
	}

	@Test
	void concurrentBeginsOnOneKeyAcquireItOnce() throws InterruptedException {
		String scope = scopeHash();
		int threads = 32;
		CountDownLatch start = new CountDownLatch(1);
		AtomicInteger acquired = new AtomicInteger();
		AtomicInteger failed = new AtomicInteger();
		List<Thread> callers = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			Thread caller = new Thread(() -> {
				try {
					start.await();
					if (store().begin(scope, "fp", token(), LONG).outcome() == Outcome.ACQUIRED) {
						acquired.incrementAndGet();
					}
				}
				catch (InterruptedException | RuntimeException ex) {
					failed.incrementAndGet();
				}
			});
			caller.start();
			callers.add(caller);
		}
		start.countDown();
		for (Thread caller : callers) {
			caller.join(10_000);
		}
		assertThat(failed).hasValue(0);
		assertThat(acquired).hasValue(1);
	}

	private static JedisConnectionFactory jedis(int port, int poolSize) {
		JedisPoolConfig pool = new JedisPoolConfig();
		pool.setMaxTotal(poolSize);
		pool.setMaxWait(Duration.ofSeconds(1));
		JedisConnectionFactory factory = new JedisConnectionFactory(
				new RedisStandaloneConfiguration(RedisTestServer.host(), port),
				JedisClientConfiguration.builder()
					.connectTimeout(Duration.ofMillis(500))
					.readTimeout(Duration.ofMillis(500))
					.usePooling()
					.poolConfig(pool)
					.build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

}
