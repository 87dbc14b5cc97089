package dev.modelgate.idempotency.redis;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPoolConfig;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.script.RedisScript;

import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.testsupport.RedisProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * How the store sends its scripts on each client, on a Redis of the test's own (so that it can
 * forget the scripts or stop answering): scripts a Redis has not seen are loaded, a Redis that
 * stops answering is a store failure within the client's timeout or the store's limit, whichever is
 * shorter (never a wait without end), and the Lettuce store follows its factory's shared connection.
 */
@Tag("store")
class ScriptCallsTests {

	private static final Duration LEASE = Duration.ofMinutes(1);

	private static final String PREFIX = "modelgate:test:calls:";

	private RedisProcess redis;

	private RedisConnectionFactory connectionFactory;

	private RedisIdempotencyStore store;

	@AfterEach
	void stop() {
		if (this.store != null) {
			this.store.close();
		}
		if (this.connectionFactory instanceof LettuceConnectionFactory lettuce) {
			lettuce.destroy();
		}
		if (this.connectionFactory instanceof JedisConnectionFactory jedis) {
			jedis.destroy();
		}
		if (this.redis != null) {
			this.redis.resume();
			this.redis.close();
		}
	}

	@Test
	void lettuceStoreSendsScriptsOnTheFactorySharedConnection() {
		this.redis = RedisProcess.start();
		this.store = store(lettuce(this.redis));
		assertThat(this.store.begin(scope(), "fp", token(), LEASE).outcome()).isEqualTo(Outcome.ACQUIRED);
		assertThat(this.store.scriptCalls()).isEqualTo("Lettuce shared connection");
	}

	@Test
	void lettuceLoadsScriptsThatRedisForgot() {
		this.redis = RedisProcess.start();
		this.store = store(lettuce(this.redis));
		loadsScriptsThatRedisForgot();
	}

	@Test
	void jedisLoadsScriptsThatRedisForgot() {
		this.redis = RedisProcess.start();
		this.store = store(jedis(this.redis));
		loadsScriptsThatRedisForgot();
	}

	@Test
	void lettuceStoreFollowsTheFactoryWhenItReplacesItsConnection() {
		this.redis = RedisProcess.start();
		LettuceConnectionFactory lettuce = lettuce(this.redis);
		this.store = store(lettuce);
		String scope = scope();
		String token = token();
		this.store.begin(scope, "fp", token, LEASE);

		lettuce.resetConnection();

		assertThat(this.store.complete(scope, token, null, LEASE)).isTrue();
		assertThat(this.store.begin(scope, "fp", token(), LEASE).outcome()).isEqualTo(Outcome.COMPLETED);
	}

	@Test
	void lettuceFactoryThatSharesNoConnectionIsServedThroughTheTemplate() {
		this.redis = RedisProcess.start();
		LettuceConnectionFactory lettuce = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(this.redis.host(), this.redis.port()));
		lettuce.setShareNativeConnection(false);
		lettuce.afterPropertiesSet();
		lettuce.start();
		this.connectionFactory = lettuce;
		this.store = store(lettuce);
		String scope = scope();
		String token = token();

		assertThat(this.store.begin(scope, "fp", token, LEASE).outcome()).isEqualTo(Outcome.ACQUIRED);
		assertThat(this.store.complete(scope, token, null, LEASE)).isTrue();
		assertThat(this.store.begin(scope, "fp", token(), LEASE).outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(this.store.scriptCalls()).isEqualTo("RedisTemplate");
	}

	@Test
	void lettuceCallToARedisThatStoppedAnsweringFailsAfterTheCommandTimeout() {
		this.redis = RedisProcess.start();
		this.store = store(lettuce(this.redis));
		this.store.begin(scope(), "fp", token(), LEASE);
		this.redis.freeze();

		assertTimeoutPreemptively(Duration.ofSeconds(20),
				() -> assertThatExceptionOfType(IdempotencyStoreException.class)
					.isThrownBy(() -> this.store.begin(scope(), "fp", token(), LEASE)));
	}

	@Test
	void lettuceCallWaitsNoLongerThanTheStoresLimitWhenTheClientWouldWaitLonger() {
		this.redis = RedisProcess.start();
		this.store = storeWithLimit(patientLettuce(this.redis), Duration.ofMillis(300));
		this.store.begin(scope(), "fp", token(), LEASE);
		this.redis.freeze();

		beginFailsLongBeforeTheClientsTimeout();
	}

	@Test
	void lettuceFirstConnectionThatGetsNoAnswerFailsWithinTheLimitAndServesOnceRedisAnswers() {
		this.redis = RedisProcess.start();
		this.store = storeWithLimit(patientLettuce(this.redis), Duration.ofMillis(300));
		// Frozen, Redis still accepts connections (the kernel does), but never answers the handshake.
		this.redis.freeze();

		beginFailsLongBeforeTheClientsTimeout();

		this.redis.resume();
		Awaitility.await()
			.atMost(Duration.ofSeconds(20))
			.ignoreExceptionsInstanceOf(IdempotencyStoreException.class)
			.until(() -> this.store.begin(scope(), "fp", token(), LEASE).outcome() == Outcome.ACQUIRED);
		assertThat(this.store.scriptCalls()).isEqualTo("Lettuce shared connection");
	}

	@Test
	void jedisCallToARedisThatStoppedAnsweringFailsAfterTheReadTimeout() {
		this.redis = RedisProcess.start();
		this.store = store(jedis(this.redis));
		this.store.begin(scope(), "fp", token(), LEASE);
		this.redis.freeze();

		assertTimeoutPreemptively(Duration.ofSeconds(20),
				() -> assertThatExceptionOfType(IdempotencyStoreException.class)
					.isThrownBy(() -> this.store.begin(scope(), "fp", token(), LEASE)));
	}

	/**
	 * 64 MiB is more than the socket buffers of a loopback connection take in, so the write itself
	 * would block with nobody reading; the store's own thread does the writing and the caller gives
	 * up after the call time limit.
	 */
	@Test
	void jedisLargeRecordToARedisThatStoppedReadingFailsWithinTheCallTimeLimit() {
		this.redis = RedisProcess.start("--client-query-buffer-limit", "1gb", "--proto-max-bulk-len", "1gb");
		this.store = store(jedis(this.redis));
		String scope = scope();
		String token = token();
		this.store.begin(scope, "fp", token, LEASE);
		this.redis.freeze();
		StoredOutcome large = new StoredOutcome(StoredOutcome.Kind.RESPONSE, new byte[64 * 1024 * 1024]);

		assertTimeoutPreemptively(Duration.ofSeconds(20),
				() -> assertThatExceptionOfType(IdempotencyStoreException.class)
					.isThrownBy(() -> this.store.complete(scope, token, large, LEASE)));
	}

	@Test
	void eachScriptCarriesTheSha1RedisGivesItsText() throws IllegalAccessException {
		this.redis = RedisProcess.start();
		RedisRecords records = new RedisRecords(PREFIX);
		List<RedisScript<?>> scripts = new ArrayList<>();
		for (Field field : RedisRecords.class.getDeclaredFields()) {
			if (RedisScript.class.isAssignableFrom(field.getType())) {
				scripts.add((RedisScript<?>) field.get(records));
			}
		}
		assertThat(scripts).hasSize(9);
		for (RedisScript<?> script : scripts) {
			assertThat(script.getSha1()).isEqualTo(this.redis.cli("SCRIPT", "LOAD", script.getScriptAsString()).trim());
		}
	}

	private void loadsScriptsThatRedisForgot() {
		this.store.begin(scope(), "fp", token(), LEASE);
		this.redis.cli("SCRIPT", "FLUSH");
		String scope = scope();
		String token = token();

		assertThat(this.store.begin(scope, "fp", token, LEASE).outcome()).isEqualTo(Outcome.ACQUIRED);
		assertThat(this.store.complete(scope, token, null, LEASE)).isTrue();
		assertThat(this.store.begin(scope, "fp", token(), LEASE).outcome()).isEqualTo(Outcome.COMPLETED);
	}

	private RedisIdempotencyStore store(RedisConnectionFactory factory) {
		this.connectionFactory = factory;
		return new RedisIdempotencyStore(factory, PREFIX, Duration.ofSeconds(2));
	}

	/** Within seconds of the store's 300 ms limit, a minute before Lettuce's 60 s would end. */
	private void beginFailsLongBeforeTheClientsTimeout() {
		long started = System.nanoTime();
		assertTimeoutPreemptively(Duration.ofSeconds(20),
				() -> assertThatExceptionOfType(IdempotencyStoreException.class)
					.isThrownBy(() -> this.store.begin(scope(), "fp", token(), LEASE)));
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
	}

	private RedisIdempotencyStore storeWithLimit(RedisConnectionFactory factory, Duration callTimeLimit) {
		this.connectionFactory = factory;
		return new RedisIdempotencyStore(factory, PREFIX, callTimeLimit);
	}

	/** Lettuce as Spring Boot builds it by default: 60 s per command. */
	private static LettuceConnectionFactory patientLettuce(RedisProcess redis) {
		return redis.connectionFactory(LettuceClientConfiguration.builder()
			.commandTimeout(Duration.ofSeconds(60))
			.shutdownTimeout(Duration.ZERO)
			.build());
	}

	private static LettuceConnectionFactory lettuce(RedisProcess redis) {
		return redis.connectionFactory(LettuceClientConfiguration.builder()
			.commandTimeout(Duration.ofMillis(500))
			.shutdownTimeout(Duration.ZERO)
			.build());
	}

	private static JedisConnectionFactory jedis(RedisProcess redis) {
		JedisPoolConfig pool = new JedisPoolConfig();
		pool.setMaxWait(Duration.ofMillis(500));
		JedisConnectionFactory factory = new JedisConnectionFactory(
				new RedisStandaloneConfiguration(redis.host(), redis.port()),
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

	private static String scope() {
		return UUID.randomUUID().toString();
	}

	private static String token() {
		return UUID.randomUUID().toString();
	}

}
