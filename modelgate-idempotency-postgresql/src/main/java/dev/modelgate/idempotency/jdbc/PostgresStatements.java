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

	PostgresStatements(String t) {
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
		this.delete = """
				DELETE FROM %s
				WHERE scope = ? AND token = ? AND state = 'in_progress' AND expires_at > statement_timestamp()"""
			.formatted(t);
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
				DELETE FROM %1$s WHERE scope IN (
					SELECT scope FROM %1$s WHERE expires_at <= statement_timestamp() LIMIT ? FOR UPDATE SKIP LOCKED)
				AND expires_at <= statement_timestamp()""".formatted(t);
		this.inspect = """
				SELECT state, created_at, expires_at, statement_timestamp() AS now, outcome_kind,
					octet_length(outcome)::bigint AS outcome_size
				FROM %s WHERE scope = ? AND expires_at > statement_timestamp()""".formatted(t);
		// Deletes an expired row too (the purge would anyway), but only a live one counts as deleted.
		this.deleteAny = """
				WITH deleted AS (DELETE FROM %s WHERE scope = ? RETURNING expires_at)
				SELECT count(*) FROM deleted WHERE expires_at > statement_timestamp()""".formatted(t);
	}

}
