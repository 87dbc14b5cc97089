package dev.modelgate.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.lettuce.core.api.StatefulConnection;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettucePoolingClientConfiguration;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.ResultCodec;
import dev.modelgate.idempotency.core.StoredOutcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Replica acknowledgements on a real primary and replica started by the test: acknowledged writes
 * count, and a {@code begin} that the replica did not acknowledge fails closed within the timeout.
 */
@Tag("store")
class RedisReplicaAcknowledgementTests {

	private static final String PREFIX = "modelgate:test:acks:" + UUID.randomUUID() + ":";

	private static final Duration LONG = Duration.ofMinutes(5);

	private static final Duration ACK_TIMEOUT = Duration.ofMillis(300);

	private static ReplicatedRedis redis;

	private static LettuceConnectionFactory primary;

	private static StringRedisTemplate replica;

	private RedisIdempotencyStore store;

	@BeforeAll
	static void startPrimaryAndReplica() {
		redis = ReplicatedRedis.start();
		primary = redis.primaryConnectionFactory();
		replica = redis.replica();
	}

	@AfterAll
	static void stopPrimaryAndReplica() {
		redis.close();
	}

	@AfterEach
	void closeStore() {
		if (this.store != null) {
			this.store.close();
		}
	}

	@Test
	void acknowledgedBeginAndCompleteAreOnTheReplicaWhenTheyReturn() {
		RedisIdempotencyStore store = store(1);
		String scope = scope();
		String token = token();

		assertThat(store.begin(scope, "fp", token, LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
		assertThat(replica.<String, String>opsForHash().get(PREFIX + scope, "state")).isEqualTo("in_progress");
		assertThat(store.complete(scope, token, outcome(), LONG)).isTrue();
		assertThat(replica.<String, String>opsForHash().get(PREFIX + scope, "state")).isEqualTo("completed");
		assertThat(store.begin(scope, "fp", token(), LONG).outcome()).isEqualTo(Outcome.COMPLETED);
	}

	@Test
	void beginFailsClosedWithinTheTimeoutAndIsReleasedWhileTheReplicaIsFrozen() {
		RedisIdempotencyStore store = store(1);
		String scope = scope();
		redis.freezeReplica();
		long started = System.nanoTime();
		try {
			assertThatExceptionOfType(IdempotencyStoreException.class)
				.isThrownBy(() -> store.begin(scope, "fp", token(), LONG))
				.withMessageContaining("acknowledged by 0 of the 1 replicas required within 300ms")
				.withMessageContaining("the work must not run");
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(ACK_TIMEOUT, Duration.ofSeconds(2));
			assertThat(store.find(scope)).isEmpty();
		}
		finally {
			redis.thawReplica();
		}
		assertThat(store.begin(scope, "fp", token(), LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
	}

	@Test
	void workDoesNotRunWhenItsBeginIsNotAcknowledged() {
		RedisIdempotencyStore store = store(1);
		AtomicInteger runs = new AtomicInteger();
		redis.freezeReplica();
		try (IdempotencyCoordinator coordinator = IdempotencyCoordinator.create(store, Duration.ofSeconds(2))) {
			IdempotencyTemplate template = new IdempotencyTemplate(coordinator);
			assertThatExceptionOfType(IdempotencyStoreException.class)
				.isThrownBy(() -> template.execute("mail.send", "k-1", ResultCodec.utf8(), () -> {
					runs.incrementAndGet();
					return "sent";
				}));
		}
		finally {
			redis.thawReplica();
		}
		assertThat(runs).hasValue(0);
	}

	@Test
	void beginFailsClosedWhenFewerReplicasExistThanRequired() {
		RedisIdempotencyStore store = store(2);
		String scope = scope();

		assertThatExceptionOfType(IdempotencyStoreException.class)
			.isThrownBy(() -> store.begin(scope, "fp", token(), LONG))
			.withMessageContaining("acknowledged by 1 of the 2 replicas required");
		assertThat(store.find(scope)).isEmpty();
	}

	@Test
	void unacknowledgedCompleteIsAStoreFailureAfterItWasRecordedOnThePrimary() {
		RedisIdempotencyStore store = store(1);
		String scope = scope();
		String token = token();
		store.begin(scope, "fp", token, LONG);
		redis.freezeReplica();
		try {
			assertThatExceptionOfType(IdempotencyStoreException.class)
				.isThrownBy(() -> store.complete(scope, token, outcome(), LONG))
				.withMessageContaining("recorded on the primary only");
		}
		finally {
			redis.thawReplica();
		}
		assertThat(store.begin(scope, "fp", token(), LONG).outcome()).isEqualTo(Outcome.COMPLETED);
	}

	@Test
	void answersOtherThanAcquiredNeedNoAcknowledgement() {
		RedisIdempotencyStore store = store(1);
		String scope = scope();
		store.begin(scope, "fp", token(), LONG);
		redis.freezeReplica();
		try {
			assertThat(store.begin(scope, "fp", token(), LONG).outcome()).isEqualTo(Outcome.IN_PROGRESS);
			assertThat(store.begin(scope, "other", token(), LONG).outcome()).isEqualTo(Outcome.MISMATCH);
		}
		finally {
			redis.thawReplica();
		}
	}

	@Test
	void scriptUnknownToTheServerIsLoadedByTheAcknowledgedCall() {
		RedisIdempotencyStore store = store(1);
		primary.getConnection().scriptingCommands().scriptFlush();

		assertThat(store.begin(scope(), "fp", token(), LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
	}

	@Test
	void pooledConnectionsGoBackToTheFactorysPoolAfterEachCall() {
		GenericObjectPoolConfig<StatefulConnection<?, ?>> pool = new GenericObjectPoolConfig<>();
		// One for the shared connection, one for a pipeline at a time.
		pool.setMaxTotal(2);
		pool.setMaxWait(Duration.ofSeconds(1));
		LettuceConnectionFactory pooled = redis.primaryConnectionFactory(
				LettucePoolingClientConfiguration.builder().poolConfig(pool).build());
		this.store = new RedisIdempotencyStore(pooled, PREFIX, Duration.ofSeconds(5),
				new ReplicaAcknowledgement(1, ACK_TIMEOUT));

		for (int i = 0; i < 3; i++) {
			assertThat(this.store.begin(scope(), "fp", token(), LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
		}
		assertThat(new StringRedisTemplate(pooled).executePipelined((RedisCallback<Object>) (connection) -> {
			connection.stringCommands().get("nothing".getBytes(StandardCharsets.UTF_8));
			return null;
		})).hasSize(1);
	}

	@Test
	void claimsNoCallTimeLimitSoThatTheCallerBoundsIt() {
		assertThat(store(1).callTimeLimit()).isNull();
		assertThat(new RedisIdempotencyStore(primary, PREFIX, Duration.ofSeconds(1)).callTimeLimit())
			.isEqualTo(Duration.ofSeconds(1));
	}

	private RedisIdempotencyStore store(int replicas) {
		this.store = new RedisIdempotencyStore(primary, PREFIX, Duration.ofSeconds(5),
				new ReplicaAcknowledgement(replicas, ACK_TIMEOUT));
		return this.store;
	}

	private static StoredOutcome outcome() {
		return new StoredOutcome(StoredOutcome.Kind.RESPONSE, new byte[] { 1, 2, 3 });
	}

	private static String scope() {
		return (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "");
	}

	private static String token() {
		return UUID.randomUUID().toString().replace("-", "");
	}

}
