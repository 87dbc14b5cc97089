package dev.modelgate.idempotency.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * The statements of {@link JdbcIdempotencyStore} in one database's dialect, one implementation per
 * database ({@link PostgresStatements}, {@link MariaDbStatements}). Most are a text the store runs
 * as it is; where a database needs another flow (PostgreSQL does {@code begin}, release and purge in
 * one statement each with data-modifying CTEs, which MariaDB and MySQL lack) the implementation runs
 * it. Parameters are bound positionally, in the order the store passes them.
 */
interface JdbcStatements {

	/**
	 * Inserts the record, takes over an expired one, or reads the answer.
	 * @return the answer, or {@code null} when the row changed while the statements ran (inserted or
	 * deleted by another caller, or an expired row taken over by another caller first) and the caller
	 * has to ask again
	 */
	@Nullable BeginResult begin(JdbcTemplate jdbc, String scope, String fingerprint, String token, long leaseMillis);

	/** Lease deadline, lease deadline, lease deadline, scope, token: extends a live lease. */
	String renew();

	/** Outcome kind, outcome, ttl, scope, token: completes a held record. */
	String complete();

	/**
	 * Deletes the holder's in-progress record and its stream.
	 * @return whether the record was deleted
	 */
	boolean deleteHeld(JdbcTemplate jdbc, String scope, String token);

	/** Retention, scope, token: turns a held applied record into a completed one without outcome. */
	String completeApplied();

	/** Retention, scope, token: marks a held record applied, inside the business transaction. */
	String markApplied();

	/**
	 * Scope, token: counts the live applied record of that holder, for a mark that changed nothing
	 * (a repeated mark, where a driver that reports changed rather than found rows answers 0).
	 */
	String appliedBy();

	/**
	 * Deletes up to {@code batchSize} expired records and their streams.
	 * @return how many records were deleted
	 */
	int purge(JdbcTemplate jdbc, int batchSize);

	/** Scope: the live record's state, times ({@code db_now} the database's) and outcome kind and size. */
	String inspect();

	/**
	 * Deletes the record under {@code scope} and its stream.
	 * @return whether a live record was deleted
	 */
	boolean deleteAny(JdbcTemplate jdbc, String scope);

	/** Head, scope, token: writes a stream's head as event 0, once. */
	String openStream();

	/** Ttl, scope, token: completes a held record with its stream's head as outcome. */
	String completeStream();

	/** After, up to, scope: the head and the events after {@code after} up to {@code up to}. */
	String readStream();

	/**
	 * Appends {@code count} events in one statement, for the holder of a live record whose stream's
	 * last event is the sequence given last; parameters: for each event its sequence and bytes, then
	 * scope, token and the last sequence.
	 */
	String appendEvents(int count);

	/** Reads a timestamp column written by these statements. */
	@Nullable Instant instant(ResultSet rs, String column) throws SQLException;

	/**
	 * The answer from the row a {@code begin} found (columns {@code same}, {@code state},
	 * {@code expired}, {@code lease_live}, {@code outcome_kind}, {@code outcome}), or {@code null}
	 * when there was none or it had expired: the caller asks again.
	 */
	static @Nullable BeginResult answer(ResultSet rs) throws SQLException {
		String state = rs.getString("state");
		if (state == null || rs.getBoolean("expired")) {
			return null;
		}
		if (!rs.getBoolean("same")) {
			return BeginResult.mismatch();
		}
		return switch (state) {
			case "completed" -> {
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
