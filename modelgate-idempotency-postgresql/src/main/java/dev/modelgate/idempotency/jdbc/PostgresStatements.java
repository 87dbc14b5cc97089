package dev.modelgate.idempotency.jdbc;

/**
 * Every statement {@link JdbcIdempotencyStore} runs, in PostgreSQL's dialect ({@code ON CONFLICT},
 * {@code FOR UPDATE SKIP LOCKED}, {@code statement_timestamp()}, {@code RETURNING} in a CTE), in
 * one place, so that the SQL of another database can sit beside it. Built once per store for its
 * table.
 */
final class PostgresStatements {

	/**
	 * {@code ?} milliseconds from now on the database clock. statement_timestamp(), not now(): inside
	 * a business transaction (markApplied) now() is when that transaction began.
	 */
	private static final String DEADLINE = "statement_timestamp() + ? * INTERVAL '1 millisecond'";

	final String insert;

	final String select;

	final String takeOver;

	final String renew;

	final String complete;

	final String delete;

	final String completeApplied;

	final String markApplied;

	final String purge;

	final String inspect;

	final String deleteAny;

	final String openStream;

	final String completeStream;

	final String readStream;

	private final String table;

	PostgresStatements(String t) {
		this.table = t;
		this.insert = """
				INSERT INTO %s (scope, fingerprint, state, token, version, lease_expires_at, created_at, expires_at)
				VALUES (?, ?, 'in_progress', ?, 1, %s, statement_timestamp(), %s)
				ON CONFLICT (scope) DO NOTHING""".formatted(t, DEADLINE, DEADLINE);
		this.select = """
				SELECT fingerprint, state, version, expires_at <= statement_timestamp() AS expired,
					lease_expires_at > statement_timestamp() AS lease_live,
					outcome_kind, outcome
				FROM %s WHERE scope = ?""".formatted(t);
		// Compare-and-set on the version read by the caller: of several callers that found the same
		// expired row, only the first takes it; the others see version + 1 and look again.
		this.takeOver = """
				UPDATE %s SET fingerprint = ?, state = 'in_progress', token = ?, version = version + 1,
					lease_expires_at = %s, created_at = statement_timestamp(), expires_at = %s,
					outcome_kind = NULL, outcome = NULL
				WHERE scope = ? AND version = ? AND expires_at <= statement_timestamp()""".formatted(t, DEADLINE,
				DEADLINE);
		// An applied row's expiry is its retention, which must outlast any lease renewed on it.
		this.renew = """
				UPDATE %s SET lease_expires_at = %s,
					expires_at = CASE WHEN state = 'in_progress' THEN %s ELSE GREATEST(expires_at, %s) END
				WHERE scope = ? AND token = ? AND state IN ('in_progress', 'applied')
					AND lease_expires_at > statement_timestamp()""".formatted(t, DEADLINE, DEADLINE, DEADLINE);
		// An applied row may be completed after its lease ran out: nobody else can have taken it over,
		// and the stored outcome is better for retries than "result unavailable".
		this.complete = """
				UPDATE %s SET state = 'completed', lease_expires_at = NULL,
					outcome_kind = ?, outcome = ?, expires_at = %s
				WHERE scope = ? AND token = ? AND state IN ('in_progress', 'applied')
					AND expires_at > statement_timestamp()""".formatted(t, DEADLINE);
		// A released record's stream goes with it, in the same statement.
		this.delete = """
				WITH released AS (DELETE FROM %1$s
					WHERE scope = ? AND token = ? AND state = 'in_progress' AND expires_at > statement_timestamp()
					RETURNING scope, token),
				dropped AS (DELETE FROM %1$s_events e USING released r WHERE e.scope = r.scope AND e.token = r.token)
				SELECT count(*) FROM released""".formatted(t);
		this.completeApplied = """
				UPDATE %s SET state = 'completed', lease_expires_at = NULL, expires_at = %s
				WHERE scope = ? AND token = ? AND state = 'applied' AND expires_at > statement_timestamp()"""
			.formatted(t, DEADLINE);
		this.markApplied = """
				UPDATE %s SET state = 'applied', expires_at = GREATEST(expires_at, %s)
				WHERE scope = ? AND token = ? AND state IN ('in_progress', 'applied')
					AND expires_at > statement_timestamp()""".formatted(t, DEADLINE);
		// SKIP LOCKED: instances purging at the same time share the work instead of queueing, and a
		// purge never waits for a business transaction that holds a row. The outer condition is
		// checked again on the latest version of each row, so a row taken over meanwhile survives.
		this.purge = """
				WITH purged AS (DELETE FROM %1$s WHERE scope IN (
					SELECT scope FROM %1$s WHERE expires_at <= statement_timestamp() LIMIT ? FOR UPDATE SKIP LOCKED)
					AND expires_at <= statement_timestamp() RETURNING scope),
				dropped AS (DELETE FROM %1$s_events e USING purged p WHERE e.scope = p.scope)
				SELECT count(*) FROM purged""".formatted(t);
		this.inspect = """
				SELECT state, created_at, expires_at, statement_timestamp() AS now, outcome_kind,
					octet_length(outcome)::bigint AS outcome_size
				FROM %s WHERE scope = ? AND expires_at > statement_timestamp()""".formatted(t);
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
					AND expires_at > statement_timestamp()
				ON CONFLICT DO NOTHING""".formatted(t);
		this.completeStream = """
				UPDATE %1$s r SET state = 'completed', lease_expires_at = NULL, outcome_kind = 'stream',
					outcome = e.data, expires_at = %2$s
				FROM %1$s_events e
				WHERE r.scope = ? AND r.token = ? AND r.state IN ('in_progress', 'applied')
					AND r.expires_at > statement_timestamp()
					AND e.scope = r.scope AND e.token = r.token AND e.seq = 0""".formatted(t, DEADLINE);
		// The head (event 0) comes with every read, so a read finds out whether there is a stream. The
		// token names the attempt whose events these are (StreamSlice.attempt): the join reads only its.
		this.readStream = """
				SELECT r.state, r.outcome_kind, r.token, e.seq, e.data
				FROM %1$s r JOIN %1$s_events e ON e.scope = r.scope AND e.token = r.token
					AND (e.seq = 0 OR (e.seq > ? AND e.seq <= ?))
				WHERE r.scope = ? AND r.expires_at > statement_timestamp()
				ORDER BY e.seq""".formatted(t);
	}

	/**
	 * Appends {@code count} events in one statement, for the holder of a live record whose stream's
	 * last event is the sequence given last; parameters: then for each event its sequence and bytes,
	 * then scope, token and the last sequence.
	 * @param count how many events
	 * @return the statement
	 */
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
					AND (SELECT max(e.seq) FROM %1$s_events e WHERE e.scope = r.scope AND e.token = r.token) = ?"""
			.formatted(this.table, values);
	}

}
