package dev.modelgate.idempotency.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import dev.modelgate.idempotency.core.BeginResult;

/**
 * Every statement {@link JdbcIdempotencyStore} runs on MariaDB (10.6 or later) and MySQL (8.0 or
 * later), which share this dialect: no {@code RETURNING} (MySQL has none; MariaDB has it on
 * {@code INSERT} and {@code DELETE} but not on {@code UPDATE}), no data-modifying CTEs, multi-table
 * {@code UPDATE} and {@code DELETE} instead of {@code UPDATE ... FROM} and {@code DELETE ... USING}.
 *
 * <p>The clock is the database's, {@code UTC_TIMESTAMP(6)}: the start of the statement (in MariaDB
 * and MySQL {@code NOW()} and {@code UTC_TIMESTAMP()} are the statement's start even inside a
 * transaction, as PostgreSQL's {@code statement_timestamp()}), in UTC whatever the session's time
 * zone, stored in {@code DATETIME(6)} columns (microseconds, no 2038 limit, no conversion by the
 * session time zone as {@code TIMESTAMP} would do).
 *
 * <p>Row counts: an {@code UPDATE} counts the rows its condition found (the drivers' default,
 * {@code useAffectedRows=false}) or, with {@code useAffectedRows=true}, only those it changed. Every
 * fenced {@code UPDATE} here changes what it finds (a state, a token, a deadline that moved on), so
 * both count the same, except a repeated applied mark, which the store confirms with a read
 * ({@link #appliedBy}). {@code INSERT ... ON DUPLICATE KEY UPDATE} is not used: its count (1
 * inserted, 2 updated, 0 or 1 unchanged depending on that option) cannot tell who holds the row.
 */
final class MariaDbStatements extends JdbcStatements {

	private static final String NOW = "UTC_TIMESTAMP(6)";

	/** {@code ?} milliseconds from now on the database clock. */
	private static final String DEADLINE = "UTC_TIMESTAMP(6) + INTERVAL (? * 1000) MICROSECOND";

	private final String table;

	private final String insert;

	private final String read;

	private final String takeOver;

	private final String deleteHeld;

	private final String expiredBatch;

	private final String inspect;

	private final String dropSpentAnswers;

	private final String deleteAny;

	private final String openStream;

	private final String completeStream;

	/** @param t the table, checked by {@link TableName} */
	MariaDbStatements(String t) {
		super(t, NOW, DEADLINE);
		this.table = t;
		// IGNORE: a key that is taken inserts nothing and counts 0, without an error (which MariaDB
		// Connector/J would log at WARN for every duplicate request). Its other effect, turning errors
		// into warnings, has nothing to turn: the values are two hashes and a token of fixed sizes.
		this.insert = """
				INSERT IGNORE INTO %1$s (scope, fingerprint, state, token, version, lease_expires_at, created_at, expires_at)
				VALUES (?, ?, 'in_progress', ?, 1, %2$s, %3$s, %2$s)""".formatted(t, DEADLINE, NOW);
		// A plain read (no lock): a replay or a duplicate never waits for a business transaction that
		// holds the row. The outcome is sent only when it can be the answer.
		this.read = """
				SELECT fingerprint = ? AS same, state, expires_at <= %2$s AS expired,
					lease_expires_at > %2$s AS lease_live, coalesce(spent_at <= %2$s, false) AS spent,
					CASE WHEN fingerprint = ? AND state = 'completed' AND (spent_at IS NULL OR spent_at > %2$s)
						THEN outcome_kind END AS outcome_kind,
					CASE WHEN fingerprint = ? AND state = 'completed' AND (spent_at IS NULL OR spent_at > %2$s)
						THEN outcome END AS outcome,
					spent_status, spent_resource, completed_at
				FROM %1$s WHERE scope = ?""".formatted(t, NOW);
		// One conditional statement: InnoDB checks the condition again on the latest version of the
		// row, under its lock, so of several callers that found the same expired row only the first
		// takes it; the others find it live and count 0. The condition is checked before the
		// assignments, which MariaDB and MySQL apply left to right.
		this.takeOver = """
				UPDATE %1$s SET fingerprint = ?, state = 'in_progress', token = ?, version = version + 1,
					lease_expires_at = %2$s, created_at = %3$s, expires_at = %2$s, outcome_kind = NULL, outcome = NULL,
					spent_at = NULL, spent_status = NULL, spent_resource = NULL, completed_at = NULL
				WHERE scope = ? AND expires_at <= %3$s""".formatted(t, DEADLINE, NOW);
		// One multi-table DELETE removes the record and its events together. It counts the rows of
		// both tables, but an event row goes only with its record, so any count means the record went.
		this.deleteHeld = """
				DELETE r, e FROM %1$s r LEFT JOIN %1$s_events e ON e.scope = r.scope AND e.token = r.token
				WHERE r.scope = ? AND r.token = ? AND r.state = 'in_progress' AND r.expires_at > %2$s"""
			.formatted(t, NOW);
		// SKIP LOCKED (MariaDB 10.6, MySQL 8.0): instances purging at the same time share the work, and
		// a purge never waits for a business transaction that holds a row.
		this.expiredBatch = """
				SELECT scope FROM %s WHERE expires_at <= %s LIMIT ? FOR UPDATE SKIP LOCKED""".formatted(t, NOW);
		this.inspect = """
				SELECT state, created_at, expires_at, %2$s AS db_now,
					CASE WHEN spent_at IS NULL OR spent_at > %2$s THEN outcome_kind END AS outcome_kind,
					LENGTH(outcome) AS outcome_size
				FROM %1$s WHERE scope = ? AND expires_at > %2$s""".formatted(t, NOW);
		// A single-table UPDATE takes a LIMIT (a multi-table one, or an IN subquery with one, does not).
		this.dropSpentAnswers = """
				UPDATE %1$s SET outcome_kind = NULL, outcome = NULL
				WHERE spent_at <= %2$s AND outcome_kind IS NOT NULL LIMIT ?""".formatted(t, NOW);
		// Only a live record: an expired one counts as absent already, and the purge deletes it.
		this.deleteAny = """
				DELETE r, e FROM %1$s r LEFT JOIN %1$s_events e ON e.scope = r.scope
				WHERE r.scope = ? AND r.expires_at > %2$s""".formatted(t, NOW);
		// IGNORE: a second open meets the primary key and inserts nothing (its other effect, turning
		// errors into warnings, finds nothing to turn: every value comes from the row or is bytes).
		this.openStream = """
				INSERT IGNORE INTO %1$s_events (scope, token, seq, data)
				SELECT scope, token, 0, ? FROM %1$s
				WHERE scope = ? AND token = ? AND state IN ('in_progress', 'applied') AND expires_at > %2$s"""
			.formatted(t, NOW);
		this.completeStream = """
				UPDATE %1$s r JOIN %1$s_events e ON e.scope = r.scope AND e.token = r.token AND e.seq = 0
				SET r.state = 'completed', r.lease_expires_at = NULL, r.outcome_kind = 'stream', r.outcome = e.data,
					r.expires_at = %2$s
				WHERE r.scope = ? AND r.token = ? AND r.state IN ('in_progress', 'applied')
					AND r.expires_at > %3$s""".formatted(t, DEADLINE, NOW);
	}

	/**
	 * Without data-modifying CTEs a begin is up to three statements, each its own transaction and
	 * deciding on the latest row: the insert (a new key, the common case, in one round trip), else a
	 * read of the row that is there (the answer, unless it has expired), else the conditional takeover
	 * of the expired row. A row that changes between them (deleted, or taken over by another caller
	 * first) makes the caller ask again, as PostgreSQL's single statement does. They run on one
	 * connection checkout (the template's settings, a network timeout included, apply to each).
	 */
	@Override
	@Nullable BeginResult begin(JdbcTemplate jdbc, String scope, String fingerprint, String token,
			long leaseMillis) {
		return jdbc.execute((ConnectionCallback<@Nullable BeginResult>) (connection) -> {
			JdbcTemplate one = new JdbcTemplate(new SingleConnectionDataSource(connection, true));
			one.setExceptionTranslator(jdbc.getExceptionTranslator());
			return beginOn(one, scope, fingerprint, token, leaseMillis);
		});
	}

	private @Nullable BeginResult beginOn(JdbcTemplate one, String scope, String fingerprint, String token,
			long leaseMillis) {
		if (one.update(this.insert, scope, fingerprint, token, leaseMillis, leaseMillis) == 1) {
			return BeginResult.acquired();
		}
		Found found = one.query(this.read,
				(rs) -> rs.next() ? new Found(rs.getBoolean("expired"), answer(rs)) : null, fingerprint,
				fingerprint, fingerprint, scope);
		if (found == null || !found.expired()) {
			return (found != null) ? found.answer() : null;
		}
		return (one.update(this.takeOver, fingerprint, token, leaseMillis, leaseMillis, scope) == 1)
				? BeginResult.acquired() : null;
	}

	@Override
	boolean deleteHeld(JdbcTemplate jdbc, String scope, String token) {
		return jdbc.update(this.deleteHeld, scope, token) > 0;
	}

	/**
	 * Two statements in one short transaction, since a multi-table DELETE takes no {@code LIMIT}: lock
	 * a batch of expired rows, skipping locked ones, then delete them with their events. The count of
	 * the DELETE includes events, so the records deleted are the rows locked (none can change while
	 * locked).
	 */
	@Override
	int purge(JdbcTemplate jdbc, int batchSize) {
		TransactionTemplate transaction = new TransactionTemplate(
				new DataSourceTransactionManager(jdbc.getDataSource()));
		Integer purged = transaction.execute((status) -> {
			List<String> scopes = jdbc.queryForList(this.expiredBatch, String.class, batchSize);
			if (scopes.isEmpty()) {
				return 0;
			}
			String in = String.join(", ", Collections.nCopies(scopes.size(), "?"));
			jdbc.update("""
					DELETE r, e FROM %1$s r LEFT JOIN %1$s_events e ON e.scope = r.scope
					WHERE r.scope IN (%2$s) AND r.expires_at <= %3$s""".formatted(this.table, in, NOW),
					scopes.toArray());
			return scopes.size();
		});
		return (purged != null) ? purged : 0;
	}

	@Override
	int dropSpentAnswers(JdbcTemplate jdbc, int batchSize) {
		return jdbc.update(this.dropSpentAnswers, batchSize);
	}

	@Override
	String inspect() {
		return this.inspect;
	}

	@Override
	boolean deleteAny(JdbcTemplate jdbc, String scope) {
		return jdbc.update(this.deleteAny, scope) > 0;
	}

	@Override
	String openStream() {
		return this.openStream;
	}

	@Override
	String completeStream() {
		return this.completeStream;
	}

	/**
	 * The events as a derived table of {@code SELECT ... UNION ALL} rows (MySQL has no
	 * {@code VALUES} table with column names); the target table may appear in the {@code SELECT} of
	 * an {@code INSERT ... SELECT}.
	 */
	@Override
	String appendEvents(int count) {
		StringBuilder values = new StringBuilder("SELECT ? AS seq, ? AS data");
		for (int i = 1; i < count; i++) {
			values.append(" UNION ALL SELECT ?, ?");
		}
		return """
				INSERT INTO %1$s_events (scope, token, seq, data)
				SELECT r.scope, r.token, v.seq, v.data FROM %1$s r, (%2$s) AS v
				WHERE r.scope = ? AND r.token = ? AND r.state IN ('in_progress', 'applied') AND r.expires_at > %3$s
					AND (SELECT max(e.seq) FROM %1$s_events e WHERE e.scope = r.scope AND e.token = r.token) = ?"""
			.formatted(this.table, values, NOW);
	}

	@Override
	@Nullable Instant instant(ResultSet rs, String column) throws SQLException {
		LocalDateTime value = rs.getObject(column, LocalDateTime.class);
		return (value != null) ? value.toInstant(ZoneOffset.UTC) : null;
	}

	/** The row a begin found: whether it has expired, and otherwise the answer it gives. */
	private record Found(boolean expired, @Nullable BeginResult answer) {
	}

}
