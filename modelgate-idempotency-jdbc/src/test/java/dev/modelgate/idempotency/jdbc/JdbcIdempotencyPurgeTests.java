package dev.modelgate.idempotency.jdbc;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.idempotency.core.StoredOutcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Expired records are deleted in batches, and only expired ones.
 */
@Tag("store")
class JdbcIdempotencyPurgeTests {

	private static final String TABLE = "modelgate_idempotency_purge_test";

	private static final Duration LONG = Duration.ofMinutes(5);

	private static final Duration EXPIRED_SOON = Duration.ofMillis(50);

	private final AtomicInteger statements = new AtomicInteger();

	/** Counts the statements the store runs, to see the batches. */
	private final JdbcTemplate jdbcTemplate = new JdbcTemplate(database().dataSource()) {

		@Override
		public int update(String sql, Object... args) {
			JdbcIdempotencyPurgeTests.this.statements.incrementAndGet();
			return super.update(sql, args);
		}

		@Override
		public <T> T queryForObject(String sql, Class<T> requiredType, Object... args) {
			JdbcIdempotencyPurgeTests.this.statements.incrementAndGet();
			return super.queryForObject(sql, requiredType, args);
		}

	};

	private final JdbcIdempotencyStore store = database().store(this.jdbcTemplate, TABLE);

	/** {@return the server this class runs on; its MariaDB subclass says MariaDB} */
	TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

	@BeforeEach
	void emptyTable() {
		database().createOnce(TABLE);
		this.jdbcTemplate.execute("TRUNCATE " + TABLE);
	}

	@Test
	void deletesExpiredRecordsInBatchesAndKeepsLiveOnes() throws Exception {
		for (int i = 0; i < 7; i++) {
			this.store.begin(randomHex(), "fp", randomHex(), EXPIRED_SOON);
		}
		String completedExpired = randomHex();
		String token = randomHex();
		this.store.begin(completedExpired, "fp", token, LONG);
		this.store.complete(completedExpired, token, new StoredOutcome(StoredOutcome.Kind.RESPONSE, new byte[0]), EXPIRED_SOON);
		String appliedLeaseExpired = randomHex();
		token = randomHex();
		this.store.begin(appliedLeaseExpired, "fp", token, EXPIRED_SOON);
		this.store.markApplied(appliedLeaseExpired, token);
		for (int i = 0; i < 3; i++) {
			this.store.begin(randomHex(), "fp", randomHex(), LONG);
		}
		// The records that expire soon were written before these two, each with the same time to live.
		DatabaseDeadlines.awaitExpired(database(), TABLE, completedExpired);
		DatabaseDeadlines.awaitLeaseExpired(database(), TABLE, appliedLeaseExpired);

		this.statements.set(0);
		assertThat(this.store.purgeExpired(3)).isEqualTo(8);
		// One statement drops the answers of spent keys (none here), then three batches of deletes.
		assertThat(this.statements).hasValue(4);
		assertThat(rows()).isEqualTo(4);
		assertThat(this.jdbcTemplate.queryForObject("SELECT count(*) FROM " + TABLE + " WHERE scope = ?", Integer.class,
				appliedLeaseExpired))
			.isOne();
		assertThat(this.store.purgeExpired(3)).isZero();
	}

	@Test
	void purgerDeletesExpiredRecordsEveryIntervalUntilStopped() {
		this.store.begin(randomHex(), "fp", randomHex(), EXPIRED_SOON);
		this.store.begin(randomHex(), "fp", randomHex(), LONG);
		JdbcIdempotencyPurger purger = new JdbcIdempotencyPurger(this.store, Duration.ofMillis(100));
		purger.start();
		try {
			assertThat(purger.isRunning()).isTrue();
			await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(rows()).isOne());
		}
		finally {
			purger.stop();
		}
		assertThat(purger.isRunning()).isFalse();
	}

	private int rows() {
		return this.jdbcTemplate.queryForObject("SELECT count(*) FROM " + TABLE, Integer.class);
	}

	private static String randomHex() {
		return UUID.randomUUID().toString().replace("-", "");
	}

}
