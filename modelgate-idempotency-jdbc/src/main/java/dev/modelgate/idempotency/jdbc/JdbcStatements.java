package dev.modelgate.idempotency.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.SpentKey;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * The statements of {@link JdbcIdempotencyStore} in one database's dialect, one subclass per
 * database ({@link PostgresStatements}, {@link MariaDbStatements}). The conditional updates read
 * the same in every dialect but for the clock, so they are written here once; the rest is each
 * database's own. Where a database needs another flow (PostgreSQL does {@code begin}, release and
 * purge in one statement each with data-modifying CTEs, which MariaDB and MySQL lack) the subclass
 * runs it. Parameters are bound positionally, in the order the store passes them.
 */
abstract class JdbcStatements {

	/** Lease deadline, lease deadline, lease deadline, scope, token: extends a live lease. */
	final String renew;

	/** Outcome kind, outcome, ttl, scope, token: completes a held record. */
	final String complete;

	/**
	 * Outcome kind, outcome, ttl plus retention, ttl, status, resource, scope, token: completes a held
	 * record that stays spent after its ttl: the answer counts until {@code spent_at}, the marker
	 * ({@code spent_status}, {@code spent_resource}, {@code completed_at}) until {@code expires_at}.
	 */
	final String completeSpent;

	/** Retention, scope, token: turns a held applied record into a completed one without outcome. */
	final String completeApplied;

	/** Retention, scope, token: marks a held record applied, inside the business transaction. */
	final String markApplied;

	/**
	 * Scope, token: counts the live applied record of that holder, for a mark that changed nothing
	 * (a repeated mark, where a driver that reports changed rather than found rows answers 0).
	 */
	final String appliedBy;

	/** After, up to, scope: the head and the events after {@code after} up to {@code up to}. */
	final String readStream;

	/**
	 * @param t the table, checked by {@link TableName}
	 * @param now the database clock: the start of the statement, even inside a transaction
	 * @param deadline {@code ?} milliseconds from {@code now}
	 */
	JdbcStatements(String t, String now, String deadline) {
		// An applied row's expiry is its retention, which must outlast any lease renewed on it.
		// lease_expires_at is assigned first and expires_at's expression does not read it (MariaDB and
		// MySQL apply assignments left to right, each seeing the ones before).
		this.renew = """
				UPDATE %1$s SET lease_expires_at = %3$s,
					expires_at = CASE WHEN state = 'in_progress' THEN %3$s ELSE GREATEST(expires_at, %3$s) END
				WHERE scope = ? AND token = ? AND state IN ('in_progress', 'applied')
					AND lease_expires_at > %2$s""".formatted(t, now, deadline);
		// An applied row may be completed after its lease ran out: nobody else can have taken it over,
		// and the stored outcome is better for retries than "result unavailable".
		this.complete = """
				UPDATE %1$s SET state = 'completed', lease_expires_at = NULL,
					outcome_kind = ?, outcome = ?, expires_at = %3$s
				WHERE scope = ? AND token = ? AND state IN ('in_progress', 'applied')
					AND expires_at > %2$s""".formatted(t, now, deadline);
		this.completeSpent = """
				UPDATE %1$s SET state = 'completed', lease_expires_at = NULL,
					outcome_kind = ?, outcome = ?, expires_at = %3$s, spent_at = %3$s, spent_status = ?,
					spent_resource = ?, completed_at = %2$s
				WHERE scope = ? AND token = ? AND state IN ('in_progress', 'applied')
					AND expires_at > %2$s""".formatted(t, now, deadline);
		this.completeApplied = """
				UPDATE %1$s SET state = 'completed', lease_expires_at = NULL, expires_at = %3$s
				WHERE scope = ? AND token = ? AND state = 'applied' AND expires_at > %2$s"""
			.formatted(t, now, deadline);
		// Runs inside the business transaction, which commits it: never relaxed.
		this.markApplied = """
				UPDATE %1$s SET state = 'applied', expires_at = GREATEST(expires_at, %3$s)
				WHERE scope = ? AND token = ? AND state IN ('in_progress', 'applied')
					AND expires_at > %2$s""".formatted(t, now, deadline);
		this.appliedBy = """
				SELECT count(*) FROM %1$s
				WHERE scope = ? AND token = ? AND state = 'applied' AND expires_at > %2$s""".formatted(t, now);
		// The head (event 0) comes with every read, so a read finds out whether there is a stream. The
		// token names the attempt whose events these are (StreamSlice.attempt): the join reads only its.
		this.readStream = """
				SELECT r.state, r.outcome_kind, r.token, e.seq, e.data
				FROM %1$s r JOIN %1$s_events e ON e.scope = r.scope AND e.token = r.token
					AND (e.seq = 0 OR (e.seq > ? AND e.seq <= ?))
				WHERE r.scope = ? AND r.expires_at > %2$s
				ORDER BY e.seq""".formatted(t, now);
	}

	/**
	 * Inserts the record, takes over an expired one, or reads the answer.
	 * @return the answer, or {@code null} when the row changed while the statements ran (inserted or
	 * deleted by another caller, or an expired row taken over by another caller first) and the caller
	 * has to ask again
	 */
	abstract @Nullable BeginResult begin(JdbcTemplate jdbc, String scope, String fingerprint, String token, long leaseMillis);



	/**
	 * Deletes the holder's in-progress record and its stream.
	 * @return whether the record was deleted
	 */
	abstract boolean deleteHeld(JdbcTemplate jdbc, String scope, String token);




	/**
	 * Deletes up to {@code batchSize} expired records and their streams.
	 * @return how many records were deleted
	 */
	abstract int purge(JdbcTemplate jdbc, int batchSize);

	/**
	 * Drops the answers of up to {@code batchSize} spent records (their ttl is over, their marker
	 * lives on), keeping the marker.
	 * @return how many answers were dropped
	 */
	abstract int dropSpentAnswers(JdbcTemplate jdbc, int batchSize);

	/** Scope: the live record's state, times ({@code db_now} the database's) and outcome kind and size. */
	abstract String inspect();

	/**
	 * Deletes the record under {@code scope} and its stream.
	 * @return whether a live record was deleted
	 */
	abstract boolean deleteAny(JdbcTemplate jdbc, String scope);

	/** Head, scope, token: writes a stream's head as event 0, once. */
	abstract String openStream();

	/** Ttl, scope, token: completes a held record with its stream's head as outcome. */
	abstract String completeStream();


	/**
	 * Appends {@code count} events in one statement, for the holder of a live record whose stream's
	 * last event is the sequence given last; parameters: for each event its sequence and bytes, then
	 * scope, token and the last sequence.
	 */
	abstract String appendEvents(int count);

	/** Reads a timestamp column written by these statements. */
	abstract @Nullable Instant instant(ResultSet rs, String column) throws SQLException;

	/**
	 * The answer from the row a {@code begin} found (columns {@code same}, {@code state},
	 * {@code expired}, {@code lease_live}, {@code outcome_kind}, {@code outcome}, {@code spent},
	 * {@code spent_status}, {@code spent_resource}, {@code completed_at}), or {@code null} when there
	 * was none or it had expired: the caller asks again.
	 */
	@Nullable BeginResult answer(ResultSet rs) throws SQLException {
		String state = rs.getString("state");
		if (state == null || rs.getBoolean("expired")) {
			return null;
		}
		if (!rs.getBoolean("same")) {
			return BeginResult.mismatch();
		}
		return switch (state) {
			case "completed" -> {
				if (rs.getBoolean("spent")) {
					Instant completedAt = instant(rs, "completed_at");
					String status = rs.getString("spent_status");
					if (completedAt == null || status == null) {
						throw new IdempotencyStoreException("Unreadable spent-key marker");
					}
					yield BeginResult.spent(new SpentKey(status, completedAt, rs.getString("spent_resource")));
				}
				String kind = rs.getString("outcome_kind");
				byte[] outcome = rs.getBytes("outcome");
				yield BeginResult.completed((kind != null && outcome != null)
						? new StoredOutcome(StoredOutcome.Kind.ofCode(kind), outcome) : null);
			}
			// The effect is committed: never run it again. With the holder gone, say so.
			case "applied" -> rs.getBoolean("lease_live") ? BeginResult.inProgress() : BeginResult.completed(null);
			case "in_progress" -> BeginResult.inProgress();
			default -> throw new IdempotencyStoreException("Unknown idempotency record state '" + state + "'");
		};
	}

}
