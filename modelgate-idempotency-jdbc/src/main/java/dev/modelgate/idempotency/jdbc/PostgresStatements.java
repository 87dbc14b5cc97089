package dev.modelgate.idempotency.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStoreException;

/**
 * Every statement {@link JdbcIdempotencyStore} runs, in PostgreSQL's dialect ({@code ON CONFLICT},
 * {@code FOR UPDATE SKIP LOCKED}, {@code statement_timestamp()}, {@code RETURNING} in a CTE), in
 * one place, beside the SQL of the other databases ({@link MariaDbStatements}). Built once per store for its
 * table, with or without the relaxed commit of the writes that run as their own transaction.
 * Parameters are bound positionally, in the order they appear in the text.
 */
final class PostgresStatements extends JdbcStatements {

	/**
	 * {@code ?} milliseconds from now on the database clock. statement_timestamp(), not now(): inside
	 * a business transaction (markApplied) now() is when that transaction began.
	 */
	private static final String DEADLINE = "statement_timestamp() + ? * INTERVAL '1 millisecond'";

	/**
	 * Turns off the wait for the WAL flush at the commit of the one statement it is part of, when that
	 * statement is its own transaction (autocommit): set_config(..., true) lasts until the end of the
	 * current transaction, and the commit reads it. Inside a business transaction it would change
	 * that transaction's commit, so statements that can join one have a variant without it.
	 *
	 * <p>Only writes that a later write confirms are relaxed: begin, opening a stream and appending to
	 * it, the purge. The writes that settle a record (complete, completeStream, release) and renew
	 * (a lost renewal would shorten a running holder's lease) always wait for the flush, and their flush makes every earlier write durable too
	 * (PostgreSQL's log is flushed in order), as does the commit of a business transaction. A crash
	 * of the server can lose a begin only together with everything its holder wrote after it in this
	 * database (its complete then fails, as in any outage), and never a settled record.
	 */
	private static final String RELAXED_COMMIT = "set_config('synchronous_commit', 'off', true) IS NOT NULL";

	private final String begin;

	private final String delete;

	private final String purge;

	private final String inspect;

	private final String dropSpentAnswers;

	private final String deleteAny;

	private final String openStream;

	private final String completeStream;

	private final String table;

	private final String commit;

	/**
	 * @param t the table, checked by {@link TableName}
	 * @param relaxedCommit whether the writes that a later write confirms (see {@link #RELAXED_COMMIT})
	 * return without waiting for PostgreSQL to flush them to disk
	 */
	PostgresStatements(String t, boolean relaxedCommit) {
		super(t, "statement_timestamp()", DEADLINE);
		this.table = t;
		String commit = relaxedCommit ? RELAXED_COMMIT : "true";
		this.commit = commit;
		// One statement and one round trip whatever the answer; relaxed, as its holder's complete or
		// business transaction flushes it. The sub-statements share one snapshot:
		// "existing" is the row as it was when the statement began. An expired row is taken over by
		// "taken", whose condition PostgreSQL checks again on the latest version of a row changed
		// meanwhile, so of several callers that found the same expired row only the first takes it.
		// Only an expired row is updated, so a replay or a duplicate neither locks the row nor waits
		// for a business transaction that holds it. No row in the snapshot but one inserted since
		// (insert lost), or an expired row taken by another caller first: nothing acquired and nothing
		// live to answer from, and the caller asks again. The outcome is read only when it is the
		// answer: same fingerprint, completed, live.
		this.begin = """
				WITH existing AS (
					SELECT fingerprint = ? AS same, state, expires_at <= statement_timestamp() AS expired,
						lease_expires_at > statement_timestamp() AS lease_live, outcome_kind, outcome,
						coalesce(spent_at <= statement_timestamp(), false) AS spent, spent_status, spent_resource,
						completed_at
					FROM %1$s WHERE scope = ?),
				taken AS (
					UPDATE %1$s r SET fingerprint = ?, state = 'in_progress', token = ?, version = r.version + 1,
						lease_expires_at = %2$s, created_at = statement_timestamp(), expires_at = %2$s,
						outcome_kind = NULL, outcome = NULL, spent_at = NULL, spent_status = NULL,
						spent_resource = NULL, completed_at = NULL
					FROM existing e
					WHERE e.expired AND r.scope = ? AND r.expires_at <= statement_timestamp()
					RETURNING 1),
				inserted AS (
					INSERT INTO %1$s (scope, fingerprint, state, token, version, lease_expires_at, created_at,
						expires_at)
					SELECT ?, ?, 'in_progress', ?, 1, %2$s, statement_timestamp(), %2$s
					WHERE NOT EXISTS (SELECT FROM existing)
					ON CONFLICT (scope) DO NOTHING
					RETURNING 1)
				SELECT EXISTS (SELECT FROM taken) OR EXISTS (SELECT FROM inserted) AS acquired, e.same, e.state,
					e.expired, e.lease_live, e.spent,
					CASE WHEN e.same AND NOT e.expired AND NOT e.spent THEN e.outcome_kind END AS outcome_kind,
					CASE WHEN e.same AND NOT e.expired AND NOT e.spent THEN e.outcome END AS outcome,
					CASE WHEN e.same THEN e.spent_status END AS spent_status,
					CASE WHEN e.same THEN e.spent_resource END AS spent_resource,
					CASE WHEN e.same THEN e.completed_at END AS completed_at
				FROM (VALUES (true)) AS one (x) LEFT JOIN existing e ON true
				WHERE %3$s""".formatted(t, DEADLINE, commit);
		// A released record's stream goes with it, in the same statement.
		this.delete = """
				WITH released AS (DELETE FROM %1$s
					WHERE scope = ? AND token = ? AND state = 'in_progress' AND expires_at > statement_timestamp()
					RETURNING scope, token),
				dropped AS (DELETE FROM %1$s_events e USING released r WHERE e.scope = r.scope AND e.token = r.token)
				SELECT count(*) FROM released""".formatted(t);
		// SKIP LOCKED: instances purging at the same time share the work instead of queueing, and a
		// purge never waits for a business transaction that holds a row. The outer condition is
		// checked again on the latest version of each row, so a row taken over meanwhile survives.
		this.purge = """
				WITH purged AS (DELETE FROM %1$s WHERE scope IN (
					SELECT scope FROM %1$s WHERE expires_at <= statement_timestamp() LIMIT ? FOR UPDATE SKIP LOCKED)
					AND expires_at <= statement_timestamp() AND %2$s RETURNING scope),
				dropped AS (DELETE FROM %1$s_events e USING purged p WHERE e.scope = p.scope)
				SELECT count(*) FROM purged""".formatted(t, commit);
		// A spent key's answer counts as gone from its spent_at, before the purge drops it.
		this.inspect = """
				SELECT state, created_at, expires_at, statement_timestamp() AS db_now,
					CASE WHEN spent_at IS NULL OR spent_at > statement_timestamp() THEN outcome_kind END AS outcome_kind,
					octet_length(outcome)::bigint AS outcome_size
				FROM %s WHERE scope = ? AND expires_at > statement_timestamp()""".formatted(t);
		// SKIP LOCKED, as the purge: instances share the work and never wait for one another.
		this.dropSpentAnswers = """
				UPDATE %1$s SET outcome_kind = NULL, outcome = NULL WHERE scope IN (
					SELECT scope FROM %1$s WHERE spent_at <= statement_timestamp() AND outcome_kind IS NOT NULL
					LIMIT ? FOR UPDATE SKIP LOCKED)
					AND spent_at <= statement_timestamp() AND %2$s""".formatted(t, commit);
		// Deletes an expired row too (the purge would anyway), but only a live one counts as deleted.
		this.deleteAny = """
				WITH deleted AS (DELETE FROM %1$s WHERE scope = ? RETURNING scope, expires_at),
				dropped AS (DELETE FROM %1$s_events e USING deleted d WHERE e.scope = d.scope)
				SELECT count(*) FROM deleted WHERE expires_at > statement_timestamp()""".formatted(t);
		// A stream is opened by writing its head as event 0, for the holder of a live record only; a
		// second open meets the primary key and inserts nothing.
		this.openStream = """
				INSERT INTO %1$s_events (scope, token, seq, data)
				SELECT scope, token, 0, ? FROM %1$s
				WHERE scope = ? AND token = ? AND state IN ('in_progress', 'applied')
					AND expires_at > statement_timestamp() AND %2$s
				ON CONFLICT DO NOTHING""".formatted(t, commit);
		this.completeStream = """
				UPDATE %1$s r SET state = 'completed', lease_expires_at = NULL, outcome_kind = 'stream',
					outcome = e.data, expires_at = %2$s
				FROM %1$s_events e
				WHERE r.scope = ? AND r.token = ? AND r.state IN ('in_progress', 'applied')
					AND r.expires_at > statement_timestamp()
					AND e.scope = r.scope AND e.token = r.token AND e.seq = 0""".formatted(t, DEADLINE);
	}

	@Override
	@Nullable BeginResult begin(JdbcTemplate jdbc, String scope, String fingerprint, String token,
			long leaseMillis) {
		return jdbc.query(this.begin, (rs) -> {
			if (!rs.next()) {
				throw new IdempotencyStoreException("begin answered no row");
			}
			return rs.getBoolean("acquired") ? BeginResult.acquired() : answer(rs);
		}, fingerprint, scope, fingerprint, token, leaseMillis, leaseMillis, scope, scope, fingerprint, token,
				leaseMillis, leaseMillis);
	}

	@Override
	boolean deleteHeld(JdbcTemplate jdbc, String scope, String token) {
		return jdbc.queryForObject(this.delete, Long.class, scope, token) == 1;
	}

	@Override
	int purge(JdbcTemplate jdbc, int batchSize) {
		return jdbc.queryForObject(this.purge, Long.class, batchSize).intValue();
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
		return jdbc.queryForObject(this.deleteAny, Long.class, scope) > 0;
	}

	@Override
	String openStream() {
		return this.openStream;
	}

	@Override
	String completeStream() {
		return this.completeStream;
	}

	@Override
	@Nullable Instant instant(ResultSet rs, String column) throws SQLException {
		OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
		return (value != null) ? value.toInstant() : null;
	}

	@Override
	String appendEvents(int count) {
		StringBuilder values = new StringBuilder();
		for (int i = 0; i < count; i++) {
			values.append((i > 0) ? ", " : "").append("(?::bigint, ?::bytea)");
		}
		return """
				INSERT INTO %1$s_events (scope, token, seq, data)
				SELECT r.scope, r.token, v.seq, v.data FROM %1$s r, (VALUES %2$s) AS v (seq, data)
				WHERE r.scope = ? AND r.token = ? AND r.state IN ('in_progress', 'applied')
					AND r.expires_at > statement_timestamp()
					AND (SELECT max(e.seq) FROM %1$s_events e WHERE e.scope = r.scope AND e.token = r.token) = ?
					AND %3$s""".formatted(this.table, values, this.commit);
	}

}
