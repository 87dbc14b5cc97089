package dev.modelgate.idempotency.boot4.autoconfigure;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import dev.modelgate.idempotency.actuate.IdempotencyStoreHealthDetails;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyRecord;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencyStore;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencySchema;
import dev.modelgate.idempotency.testsupport.PostgresTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The health indicator on each kind of store: a read of a probe record that answers is UP; one
 * that fails, or does not answer in time, is DOWN. The store's details are added to an UP health,
 * within the same timeout.
 */
@Tag("store")
class IdempotencyStoreHealthIndicatorTests {

	@Test
	void memoryStoreIsUp() {
		Health health = check(new InMemoryIdempotencyStore(), Duration.ofSeconds(2));
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("store", "memory");
	}

	@Test
	void jdbcStoreWithItsTableIsUp() {
		PostgresTestServer.recreateTable("modelgate_idempotency_health", JdbcIdempotencySchema.script("modelgate_idempotency_health"));
		Health health = check(
				new JdbcIdempotencyStore(PostgresTestServer.jdbcTemplate(), "modelgate_idempotency_health"),
				Duration.ofSeconds(5));
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("store", "jdbc");
	}

	@Test
	void jdbcStoreWhoseTableIsMissingIsDownThoughTheDatabaseAnswers() {
		Health health = check(
				new JdbcIdempotencyStore(PostgresTestServer.jdbcTemplate(), "modelgate_idempotency_never_created"),
				Duration.ofSeconds(5));
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails().get("error").toString()).contains("modelgate_idempotency_never_created");
	}

	@Test
	void storeThatHangsIsDownWithinTheTimeout() {
		CountDownLatch never = new CountDownLatch(1);
		long started = System.nanoTime();
		Health health = check(new HangingStore(never), Duration.ofMillis(300));
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
		never.countDown();
	}

	@Test
	void storeThatCannotBeInspectedIsUnknown() {
		Health health = check(new HangingStore(new CountDownLatch(0)) {

			@Override
			public Optional<IdempotencyRecord> find(String scope) {
				throw new UnsupportedOperationException("no find");
			}

		}, Duration.ofSeconds(1));
		assertThat(health.getStatus()).isEqualTo(Status.UNKNOWN);
	}

	@Test
	void storeDetailsAreAddedWithoutChangingTheStatus() {
		Health health = check(new InMemoryIdempotencyStore(), Duration.ofSeconds(2),
				() -> Map.of("evictionPolicy", "allkeys-lru", "warning", "records may be evicted"));
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("store", "memory")
			.containsEntry("evictionPolicy", "allkeys-lru")
			.containsEntry("warning", "records may be evicted");
	}

	@Test
	void storeDetailsThatHangAreDownWithinTheTimeout() {
		CountDownLatch never = new CountDownLatch(1);
		long started = System.nanoTime();
		Health health = check(new InMemoryIdempotencyStore(), Duration.ofMillis(300), () -> {
			try {
				never.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return Map.of();
		});
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
		never.countDown();
	}

	private static Health check(IdempotencyStore store, Duration timeout) {
		return check(store, timeout, IdempotencyStoreHealthDetails.none());
	}

	private static Health check(IdempotencyStore store, Duration timeout, IdempotencyStoreHealthDetails details) {
		IdempotencyStoreHealthIndicator indicator = new IdempotencyStoreHealthIndicator(store, timeout, details);
		try {
			return indicator.health();
		}
		finally {
			indicator.destroy();
		}
	}

	/** A store whose reads wait for a latch. */
	private static class HangingStore implements IdempotencyStore {

		private final CountDownLatch latch;

		HangingStore(CountDownLatch latch) {
			this.latch = latch;
		}

		@Override
		public Optional<IdempotencyRecord> find(String scope) {
			try {
				this.latch.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return Optional.empty();
		}

		@Override
		public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			throw new UnsupportedOperationException();
		}

		@Override
		public boolean renew(String scope, String token, Duration leaseTtl) {
			throw new UnsupportedOperationException();
		}

		@Override
		public boolean complete(String scope, String token, StoredOutcome response, Duration ttl) {
			throw new UnsupportedOperationException();
		}

		@Override
		public boolean release(String scope, String token) {
			throw new UnsupportedOperationException();
		}

	}

}
