package dev.modelgate.idempotency.jdbc;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.IdempotencyRecord;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.test.IdempotencyStoreContractTests;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StoredOutcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The store contract, and what only the PostgreSQL store promises, on a real server.
 */
@Tag("store")
class JdbcIdempotencyStoreTests extends IdempotencyStoreContractTests {

	private static final String TABLE = "modelgate_idempotency_test";

	private final JdbcTemplate jdbcTemplate = database().jdbcTemplate();

	@Override
	protected IdempotencyStore createStore() {
		database().createOnce(TABLE);
		return database().store(this.jdbcTemplate, TABLE);
	}

	@Override
	protected void purge() {
		jdbcStore().purgeExpired(1000);
	}

	@Override
	protected long answerBytesKept(String scope) {
		return this.jdbcTemplate.queryForObject("SELECT coalesce(sum(octet_length(outcome)), 0) FROM " + TABLE
				+ " WHERE scope = ?", Long.class, scope);
	}

	@Override
	protected boolean keepsAnything(String scope) {
		return this.jdbcTemplate.queryForObject("SELECT count(*) FROM " + TABLE + " WHERE scope = ?", Long.class,
				scope) > 0;
	}

	private JdbcIdempotencyStore jdbcStore() {
		return (JdbcIdempotencyStore) store();
	}

	/** {@return the server this class runs on; its MariaDB subclass says MariaDB} */
	TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

	@Test
	void concurrentBeginsTakeOverAnExpiredRecordExactlyOnce() throws Exception {
		String scope = scopeHash();
		store().begin(scope, "fp", token(), SHORT_LEASE);
		DatabaseDeadlines.awaitLeaseExpired(database(), TABLE, scope);
		assertOneAcquiresAndTheRestSeeItInProgress(raceBegins(scope, 24));
		assertThat(column(scope, "version", Long.class)).isEqualTo(2);
	}

	@Test
	void staleHolderCannotOverwriteOrDeleteNewHoldersRecord() throws Exception {
		String scope = scopeHash();
		String stale = token();
		store().begin(scope, "fp", stale, SHORT_LEASE);
		DatabaseDeadlines.awaitLeaseExpired(database(), TABLE, scope);
		String current = token();
		assertThat(store().begin(scope, "fp", current, LONG).outcome()).isEqualTo(Outcome.ACQUIRED);

		assertThat(store().complete(scope, stale, new StoredOutcome(StoredOutcome.Kind.RESPONSE, "stale".getBytes()), LONG))
			.isFalse();
		assertThat(store().release(scope, stale)).isFalse();
		assertThat(store().renew(scope, stale, LONG)).isFalse();
		assertThatExceptionOfType(LeaseLostException.class).isThrownBy(() -> jdbcStore().markApplied(scope, stale));

		assertThat(column(scope, "token", String.class)).isEqualTo(current);
		assertThat(column(scope, "state", String.class)).isEqualTo("in_progress");
		assertThat(column(scope, "version", Long.class)).isEqualTo(2);
	}

	@Test
	void deadlinesAreSetByTheDatabaseClock() {
		String scope = scopeHash();
		String token = token();
		store().begin(scope, "fp", token, Duration.ofMinutes(10));
		assertThat(secondsFromDatabaseNow(scope, "expires_at")).isBetween(599.0, 600.0);
		assertThat(secondsFromDatabaseNow(scope, "lease_expires_at")).isBetween(599.0, 600.0);
		assertThat(secondsFromDatabaseNow(scope, "created_at")).isBetween(-1.0, 0.0);

		assertThat(store().renew(scope, token, Duration.ofMinutes(20))).isTrue();
		assertThat(secondsFromDatabaseNow(scope, "expires_at")).isBetween(1199.0, 1200.0);
		assertThat(secondsFromDatabaseNow(scope, "lease_expires_at")).isBetween(1199.0, 1200.0);
	}

	@Test
	void recordExpiredOnTheDatabaseClockIsAbsentAtOnce() {
		String scope = scopeHash();
		String token = token();
		store().begin(scope, "fp", token, LONG);
		this.jdbcTemplate.update("UPDATE " + TABLE + " SET expires_at = " + database().now() + ", "
				+ "lease_expires_at = " + database().now() + " WHERE scope = ?", scope);

		assertThat(store().renew(scope, token, LONG)).isFalse();
		assertThat(store().complete(scope, token, binaryOutcome(), LONG)).isFalse();
		assertThat(store().begin(scope, "other", token(), LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
	}

	@Test
	void appliedRecordIsInProgressWhileItsLeaseLivesThenCompletedWithoutResponse() throws Exception {
		String scope = scopeHash();
		String holder = token();
		store().begin(scope, "fp", holder, SHORT_LEASE);
		jdbcStore().markApplied(scope, holder);
		jdbcStore().markApplied(scope, holder);
		assertThat(store().begin(scope, "fp", token(), LONG).outcome()).isEqualTo(Outcome.IN_PROGRESS);
		assertThat(store().begin(scope, "other", token(), LONG).outcome()).isEqualTo(Outcome.MISMATCH);

		DatabaseDeadlines.awaitLeaseExpired(database(), TABLE, scope);
		BeginResult retry = store().begin(scope, "fp", token(), LONG);
		assertThat(retry.outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(retry.stored()).isNull();
		assertThat(store().begin(scope, "other", token(), LONG).outcome()).isEqualTo(Outcome.MISMATCH);
		assertThat(store().renew(scope, holder, LONG)).isFalse();
	}

	@Test
	void appliedRecordIsFoundAsApplied() {
		String scope = scopeHash();
		String holder = token();
		store().begin(scope, "fp", holder, LONG);
		jdbcStore().markApplied(scope, holder);
		IdempotencyRecord record = store().find(scope).orElseThrow();
		assertThat(record.state()).isEqualTo(IdempotencyRecord.State.APPLIED);
		assertThat(record.outcomeKind()).isNull();
	}

	@Test
	void holderCompletesAppliedRecordEvenAfterItsLeaseRanOut() throws Exception {
		String scope = scopeHash();
		String holder = token();
		store().begin(scope, "fp", holder, SHORT_LEASE);
		jdbcStore().markApplied(scope, holder);
		DatabaseDeadlines.awaitLeaseExpired(database(), TABLE, scope);
		assertThat(store().complete(scope, holder, binaryOutcome(), LONG)).isTrue();
		assertThat(store().begin(scope, "fp", token(), LONG).stored()).isEqualTo(binaryOutcome());
	}

	@Test
	void releaseOfAppliedRecordKeepsItAsCompletedWithoutResponse() {
		String scope = scopeHash();
		String holder = token();
		store().begin(scope, "fp", holder, LONG);
		jdbcStore().markApplied(scope, holder);
		assertThat(store().release(scope, holder)).isTrue();
		BeginResult retry = store().begin(scope, "fp", token(), LONG);
		assertThat(retry.outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(retry.stored()).isNull();
		assertThat(secondsFromDatabaseNow(scope, "expires_at"))
			.isBetween(JdbcIdempotencyStore.DEFAULT_APPLIED_RETENTION.toSeconds() - 1.0,
					(double) JdbcIdempotencyStore.DEFAULT_APPLIED_RETENTION.toSeconds());
		assertThat(store().release(scope, holder)).isFalse();
	}

	@Test
	void appliedRecordOutlivesItsLeaseForTheRetention() {
		JdbcIdempotencyStore store = database().store(this.jdbcTemplate, TABLE, Duration.ofHours(2), null);
		String scope = scopeHash();
		String holder = token();
		store.begin(scope, "fp", holder, Duration.ofSeconds(30));
		store.markApplied(scope, holder);
		assertThat(secondsFromDatabaseNow(scope, "expires_at")).isBetween(7199.0, 7200.0);
		assertThat(secondsFromDatabaseNow(scope, "lease_expires_at")).isBetween(29.0, 30.0);
	}

	@Test
	void everyDatabaseFailureIsAStoreException() throws IOException {
		DriverManagerDataSource unreachable = new DriverManagerDataSource(database().url(closedPort()), "postgres", "");
		JdbcIdempotencyStore store = database().store(new JdbcTemplate(unreachable), TABLE);
		String scope = scopeHash();
		assertThatExceptionOfType(IdempotencyStoreException.class)
			.isThrownBy(() -> store.begin(scope, "fp", token(), LONG));
		assertThatExceptionOfType(IdempotencyStoreException.class).isThrownBy(() -> store.renew(scope, token(), LONG));
		assertThatExceptionOfType(IdempotencyStoreException.class)
			.isThrownBy(() -> store.complete(scope, token(), binaryOutcome(), LONG));
		assertThatExceptionOfType(IdempotencyStoreException.class).isThrownBy(() -> store.release(scope, token()));
		assertThatExceptionOfType(IdempotencyStoreException.class)
			.isThrownBy(() -> store.markApplied(scope, token()));
		assertThatExceptionOfType(IdempotencyStoreException.class).isThrownBy(() -> store.purgeExpired(10));
	}

	@Test
	void missingTableIsAStoreException() {
		JdbcIdempotencyStore store = database().store(this.jdbcTemplate, "modelgate_idempotency_missing");
		assertThatExceptionOfType(IdempotencyStoreException.class)
			.isThrownBy(() -> store.begin(scopeHash(), "fp", token(), LONG));
	}

	@Test
	void tableNameMustBeAPlainIdentifier() {
		for (String name : List.of("", "1table", "idem; DROP TABLE users", "\"quoted\"", "a.b.c", "a b", "a-b",
				".table", "schema.", "x".repeat(64))) {
			assertThatIllegalArgumentException().as(name)
				.isThrownBy(() -> new JdbcIdempotencyStore(this.jdbcTemplate, name));
		}
		new JdbcIdempotencyStore(this.jdbcTemplate, "Idempotency_2");
		new JdbcIdempotencyStore(this.jdbcTemplate, "billing.idempotency");
		new JdbcIdempotencyStore(this.jdbcTemplate, "x".repeat(63));
	}

	private <T> T column(String scope, String column, Class<T> type) {
		return this.jdbcTemplate.queryForObject("SELECT " + column + " FROM " + TABLE + " WHERE scope = ?", type,
				scope);
	}

	private double secondsFromDatabaseNow(String scope, String column) {
		return this.jdbcTemplate.queryForObject(
				"SELECT " + database().secondsFromNow(column) + " FROM " + TABLE + " WHERE scope = ?",
				Double.class, scope);
	}

	private static int closedPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
