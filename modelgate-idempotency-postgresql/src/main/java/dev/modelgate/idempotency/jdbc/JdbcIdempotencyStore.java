package dev.modelgate.idempotency.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyRecord;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamEvent;
import dev.modelgate.idempotency.core.StreamSlice;

/**
 * An {@link IdempotencyStore} in a PostgreSQL table: one row per scope hash, which is the primary
 * key, so the database decides who runs an operation and keeps deciding after a crash. The table is
 * created from {@code META-INF/modelgate/schema/postgresql.sql} (see {@link JdbcIdempotencySchema}); every
 * statement is in {@link PostgresStatements}.
 *
 * <p>Every deadline is computed and compared by the database ({@code statement_timestamp()}), never
 * by the JVM, so instances whose clocks disagree still agree on who holds a lease. A record past its
 * expiry counts as absent at once; {@link #purgeExpired} deletes it later.
 *
 * <p>Besides the states of {@link IdempotencyStore}, a row can be {@code applied}: the holder's
 * business transaction on the same database committed (see {@link #markApplied} and
 * {@link MarkAppliedTransactionListener}) but its response is not stored yet. An applied row is never
 * taken over: while its lease is live, {@code begin} answers {@code IN_PROGRESS}; once the lease has
 * run out (the holder died between its commit and storing the response), {@code begin} answers
 * {@code COMPLETED} without a response, so a retry is told that the operation ran instead of running
 * it again. The holder can still {@code complete} it; a {@code release} cannot undo the effect, so it
 * turns the row into a completed record without a response. Such rows are kept for the
 * {@code appliedRetention} given at construction.
 *
 * <p>Statements run through the given {@link JdbcTemplate}, so they join a transaction bound to the
 * calling thread; callers run {@code begin}, {@code renew}, {@code complete} and {@code release}
 * outside business transactions (the {@code IdempotencyCoordinator} runs them on its own threads).
 * Every database failure surfaces as an {@link IdempotencyStoreException}.
 *
 * <p>Each transition is one statement, one round trip and one connection checkout, run as its own
 * transaction (autocommit, no {@code BEGIN}/{@code COMMIT} around it): {@code begin} inserts, takes
 * over an expired record, or reads what the answer needs, all in one statement; {@code complete},
 * {@code renew} and {@code release} are one conditional write each (a release of an applied record
 * is two); {@link #markApplied} is one statement on the business transaction's own connection. By
 * default {@code begin} does not wait for PostgreSQL's WAL flush; the writes that settle a record
 * do (see the four-argument constructor).
 *
 * <p>Streams live in a second table, {@code <table>_events}, one row per event (the head as event
 * 0), keyed by scope, the writing attempt's token and sequence; release, deletion and the purge
 * delete a record's events in the same statement.
 */
public class JdbcIdempotencyStore implements IdempotencyStore {

	/** How long an applied or released-after-applied record is kept unless told otherwise. */
	public static final Duration DEFAULT_APPLIED_RETENTION = Duration.ofHours(24);

	private static final String IN_PROGRESS = "in_progress";

	private static final String APPLIED = "applied";

	private static final String COMPLETED = "completed";

	/**
	 * A {@code begin} goes round again only when the row changed while its statement ran (inserted
	 * after the statement's snapshot, or an expired row taken over by another caller first); meeting
	 * that this many times in a row means something is wrong, and guessing an answer would be worse
	 * than failing.
	 */
	private static final int MAX_BEGIN_ROUNDS = 10;

	private final JdbcTemplate jdbcTemplate;

	private final TableName table;

	private final long appliedRetentionMillis;

	/** The statements for calls that run as their own transaction. */
	private final PostgresStatements sql;

	/** The statements for calls that join a transaction bound to the calling thread: never relaxed. */
	private final PostgresStatements joined;

	/**
	 * Creates a store that keeps applied records for {@link #DEFAULT_APPLIED_RETENTION}.
	 * @param jdbcTemplate runs the statements
	 * @param tableName the table, {@code name} or {@code schema.name}
	 * @throws IllegalArgumentException when the table name is not a plain SQL identifier
	 */
	public JdbcIdempotencyStore(JdbcTemplate jdbcTemplate, String tableName) {
		this(jdbcTemplate, tableName, DEFAULT_APPLIED_RETENTION);
	}

	/**
	 * Creates a store.
	 * @param jdbcTemplate runs the statements
	 * @param tableName the table, {@code name} or {@code schema.name}
	 * @param appliedRetention how long a record whose operation committed but whose response was never
	 * stored keeps answering retries (with "applied, result unavailable") before it may be purged
	 * @throws IllegalArgumentException when the table name is not a plain SQL identifier
	 */
	public JdbcIdempotencyStore(JdbcTemplate jdbcTemplate, String tableName, Duration appliedRetention) {
		this(jdbcTemplate, tableName, appliedRetention, false);
	}

	/**
	 * Creates a store.
	 * @param jdbcTemplate runs the statements
	 * @param tableName the table, {@code name} or {@code schema.name}
	 * @param appliedRetention how long a record whose operation committed but whose response was never
	 * stored keeps answering retries (with "applied, result unavailable") before it may be purged
	 * @param synchronousCommit whether every write of the store waits until PostgreSQL has flushed it
	 * to disk. Without it ({@code false}, the other constructors' choice) the writes that a later
	 * write confirms ({@code begin}, opening and appending to a stream, the purge) each
	 * commit with {@code synchronous_commit = off} for that statement alone: visible to every other
	 * session at once, as always, but returning before the flush. The writes that settle a record
	 * ({@code complete}, {@code completeStream}, {@code release}), {@code renew} and the applied mark (inside the
	 * business transaction, which commits as it is configured) always wait, and their flush makes
	 * every earlier write durable too. A crash of the PostgreSQL server can then lose a
	 * {@code begin} only with everything its holder wrote after it (its {@code complete} fails, as in
	 * any outage), never a settled record. A statement that joins a transaction bound to the calling
	 * thread is never relaxed.
	 * @throws IllegalArgumentException when the table name is not a plain SQL identifier
	 */
	public JdbcIdempotencyStore(JdbcTemplate jdbcTemplate, String tableName, Duration appliedRetention,
			boolean synchronousCommit) {
		if (appliedRetention.isNegative() || appliedRetention.isZero()) {
			throw new IllegalArgumentException("appliedRetention must be positive, was " + appliedRetention);
		}
		this.jdbcTemplate = jdbcTemplate;
		this.table = TableName.of(tableName);
		this.appliedRetentionMillis = appliedRetention.toMillis();
		this.joined = new PostgresStatements(this.table.qualified(), false);
		this.sql = synchronousCommit ? this.joined : new PostgresStatements(this.table.qualified(), true);
	}

	@Override
	public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		long lease = leaseTtl.toMillis();
		return access("begin", () -> {
			String begin = statements().begin;
			for (int round = 0; round < MAX_BEGIN_ROUNDS; round++) {
				BeginResult answer = this.jdbcTemplate.query(begin, JdbcIdempotencyStore::beginAnswer, fingerprint,
						scope, fingerprint, token, lease, lease, scope, scope, fingerprint, token, lease, lease);
				if (answer != null) {
					return answer;
				}
			}
			throw new IdempotencyStoreException(
					"begin found the record for scope " + scope + " changing under it " + MAX_BEGIN_ROUNDS + " times");
		});
	}

	@Override
	public boolean renew(String scope, String token, Duration leaseTtl) {
		long lease = leaseTtl.toMillis();
		return access("renew", () -> this.jdbcTemplate.update(statements().renew, lease, lease, lease, scope, token) == 1);
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
		// Typed, so that a null (result not kept) needs no round trip to learn the column types.
		SqlParameterValue kind = new SqlParameterValue(Types.VARCHAR, (outcome != null) ? outcome.kind().code() : null);
		SqlParameterValue payload = new SqlParameterValue(Types.BINARY, (outcome != null) ? outcome.payload() : null);
		return access("complete", () -> this.jdbcTemplate.update(statements().complete, kind, payload, ttl.toMillis(),
				scope, token) == 1);
	}

	/**
	 * Deletes the holder's in-progress record. If the holder's transaction already committed (the row
	 * is applied), the effect cannot be undone by letting a retry run again: the row becomes a
	 * completed record without a response instead, kept for the applied retention, and this answers
	 * {@code true}.
	 */
	@Override
	public boolean release(String scope, String token) {
		return access("release", () -> {
			PostgresStatements sql = statements();
			return this.jdbcTemplate.queryForObject(sql.delete, Long.class, scope, token) == 1
					|| this.jdbcTemplate.update(sql.completeApplied, this.appliedRetentionMillis, scope, token) == 1;
		});
	}

	@Override
	public Optional<IdempotencyRecord> find(String scope) {
		return access("find", () -> this.jdbcTemplate.query(this.sql.inspect, (rs, rowNum) -> {
			Instant now = instant(rs, "now");
			String kind = rs.getString("outcome_kind");
			Long size = rs.getObject("outcome_size", Long.class);
			return new IdempotencyRecord(scope, state(rs.getString("state")), instant(rs, "created_at"),
					instant(rs, "expires_at"), now, (kind != null) ? StoredOutcome.Kind.ofCode(kind) : null,
					(kind != null) ? size : null);
		}, scope).stream().findFirst());
	}

	@Override
	public boolean delete(String scope) {
		return access("delete", () -> this.jdbcTemplate.queryForObject(this.sql.deleteAny, Long.class, scope) > 0);
	}

	@Override
	public boolean openStream(String scope, String token, byte[] head) {
		return access("openStream", () -> this.jdbcTemplate.update(statements().openStream, head, scope, token) == 1);
	}

	@Override
	public boolean appendEvents(String scope, String token, long fromSequence, List<byte[]> events) {
		if (events.isEmpty()) {
			throw new IllegalArgumentException("events must not be empty");
		}
		Object[] args = new Object[events.size() * 2 + 3];
		for (int i = 0; i < events.size(); i++) {
			args[2 * i] = fromSequence + i;
			args[2 * i + 1] = events.get(i);
		}
		args[args.length - 3] = scope;
		args[args.length - 2] = token;
		args[args.length - 1] = fromSequence - 1;
		String statement = statements().appendEvents(events.size());
		return access("appendEvents", () -> this.jdbcTemplate.update(statement, args) == events.size());
	}

	@Override
	public boolean completeStream(String scope, String token, Duration ttl) {
		return access("completeStream",
				() -> this.jdbcTemplate.update(statements().completeStream, ttl.toMillis(), scope, token) == 1);
	}

	@Override
	public Optional<StreamSlice> readStream(String scope, long afterSequence, int max) {
		return access("readStream", () -> this.jdbcTemplate.query(this.sql.readStream, (rs) -> {
			if (!rs.next()) {
				return Optional.<StreamSlice>empty();
			}
			StreamSlice.State state = streamState(rs.getString("state"), rs.getString("outcome_kind"));
			byte[] head = rs.getBytes("data");
			String attempt = rs.getString("token");
			List<StreamEvent> events = new ArrayList<>();
			while (state != StreamSlice.State.NOT_KEPT && rs.next()) {
				events.add(new StreamEvent(rs.getLong("seq"), rs.getBytes("data")));
			}
			return Optional.of(new StreamSlice(head, events, state, attempt));
		}, afterSequence, afterSequence + max, scope));
	}

	/**
	 * Marks the record held by {@code token} as applied: its operation's effects are committed. Meant
	 * to run inside the business transaction, just before it commits, so that the mark and the effects
	 * commit together or not at all. Marking a record that is already applied by the same holder is
	 * allowed, so several transactions of one attempt can each call it.
	 * @param scope the scope hash
	 * @param token the token the holder began with
	 * @throws LeaseLostException when the record is gone or held by another token, so that the
	 * business transaction rolls back instead of committing a second effect
	 * @throws IdempotencyStoreException when the database cannot be asked
	 */
	public void markApplied(String scope, String token) {
		int updated = access("markApplied",
				() -> this.jdbcTemplate.update(this.joined.markApplied, this.appliedRetentionMillis, scope, token));
		if (updated == 0) {
			throw new LeaseLostException(scope);
		}
	}

	/**
	 * Deletes records past their expiry, {@code batchSize} rows per statement so that no statement
	 * holds many row locks for long, until none is left.
	 * @param batchSize the most rows one statement deletes
	 * @return how many rows were deleted
	 * @throws IdempotencyStoreException when the database cannot be asked
	 */
	public int purgeExpired(int batchSize) {
		if (batchSize < 1) {
			throw new IllegalArgumentException("batchSize must be positive, was " + batchSize);
		}
		return access("purge", () -> {
			int total = 0;
			int deleted;
			do {
				deleted = this.jdbcTemplate.queryForObject(statements().purge, Long.class, batchSize).intValue();
				total += deleted;
			}
			while (deleted == batchSize);
			return total;
		});
	}

	/** {@return the database the records live in, to recognise business transactions on the same one} */
	public DataSource getDataSource() {
		return this.jdbcTemplate.getDataSource();
	}

	/**
	 * The statements a call runs: those that relax their commit only when the call is its own
	 * transaction, never when it joins one bound to the calling thread (as JdbcTemplate would).
	 */
	private PostgresStatements statements() {
		return (this.sql == this.joined
				|| TransactionSynchronizationManager.getResource(this.jdbcTemplate.getDataSource()) != null)
				? this.joined : this.sql;
	}

	/**
	 * The answer of the begin statement's one row, or {@code null} when the row changed while the
	 * statement ran and the caller has to ask again.
	 */
	private static @Nullable BeginResult beginAnswer(ResultSet rs) throws SQLException {
		if (!rs.next()) {
			throw new IdempotencyStoreException("begin answered no row");
		}
		if (rs.getBoolean("acquired")) {
			return BeginResult.acquired();
		}
		String state = rs.getString("state");
		if (state == null || rs.getBoolean("expired")) {
			return null;
		}
		if (!rs.getBoolean("same")) {
			return BeginResult.mismatch();
		}
		return switch (state) {
			case COMPLETED -> {
				String kind = rs.getString("outcome_kind");
				byte[] outcome = rs.getBytes("outcome");
				yield BeginResult.completed((kind != null && outcome != null)
						? new StoredOutcome(StoredOutcome.Kind.ofCode(kind), outcome) : null);
			}
			// The effect is committed: never run it again. With the holder gone, say so.
			case APPLIED -> rs.getBoolean("lease_live") ? BeginResult.inProgress() : BeginResult.completed(null);
			case IN_PROGRESS -> BeginResult.inProgress();
			default -> throw new IdempotencyStoreException("Unknown idempotency record state '" + state + "'");
		};
	}

	private static Instant instant(ResultSet rs, String column) throws SQLException {
		OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
		return (value != null) ? value.toInstant() : null;
	}

	private static IdempotencyRecord.State state(String state) {
		return switch (state) {
			case IN_PROGRESS -> IdempotencyRecord.State.IN_PROGRESS;
			case APPLIED -> IdempotencyRecord.State.APPLIED;
			case COMPLETED -> IdempotencyRecord.State.COMPLETED;
			default -> throw new IdempotencyStoreException("Unknown idempotency record state '" + state + "'");
		};
	}

	private static StreamSlice.State streamState(String state, @Nullable String kind) {
		if (!COMPLETED.equals(state)) {
			return StreamSlice.State.STREAMING;
		}
		return StoredOutcome.Kind.STREAM.code().equals(kind) ? StreamSlice.State.COMPLETED
				: StreamSlice.State.NOT_KEPT;
	}

	private <T> T access(String operation, Supplier<T> call) {
		try {
			return call.get();
		}
		catch (DataAccessException ex) {
			throw new IdempotencyStoreException(operation + " failed on table " + this.table, ex);
		}
	}

}
