package dev.modelgate.idempotency.jdbc;

import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyRecord;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamEvent;
import dev.modelgate.idempotency.core.StreamSlice;

/**
 * Runs the statements of a {@link JdbcIdempotencyStore} on the caller's thread: each call's
 * {@link JdbcStatements}, its rows read back into records and stream slices, every database failure
 * reported as an {@link IdempotencyStoreException}. The store in front decides which thread a call
 * runs on.
 */
final class JdbcRecords implements IdempotencyStore {

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

	/** Runs the applied mark (in the business transaction) and the purge. */
	private final JdbcTemplate jdbcTemplate;

	/** Runs the statements of calls that are their own transaction. */
	private final JdbcTemplate own;

	private final TableName table;

	private final long appliedRetentionMillis;

	/** The statements for calls that run as their own transaction. */
	private final JdbcStatements sql;

	/** The statements for calls that join a transaction bound to the calling thread: never relaxed. */
	private final JdbcStatements joined;

	/**
	 * @param database the database the templates' DataSource is on
	 * @param jdbcTemplate runs the applied mark and the purge
	 * @param own runs the statements of calls that are their own transaction
	 * @param table the table
	 * @param appliedRetention how long an applied record is kept
	 * @param synchronousCommit whether every write waits for PostgreSQL's flush
	 */
	JdbcRecords(JdbcDatabase database, JdbcTemplate jdbcTemplate, JdbcTemplate own, TableName table,
			Duration appliedRetention, boolean synchronousCommit) {
		this.jdbcTemplate = jdbcTemplate;
		this.own = own;
		this.table = table;
		this.appliedRetentionMillis = appliedRetention.toMillis();
		this.joined = database.statements(table.qualified(), false);
		this.sql = (synchronousCommit || database != JdbcDatabase.POSTGRESQL) ? this.joined
				: database.statements(table.qualified(), true);
	}

	@Override
	public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		long lease = leaseTtl.toMillis();
		return access("begin", () -> {
			JdbcStatements sql = statements();
			for (int round = 0; round < MAX_BEGIN_ROUNDS; round++) {
				BeginResult answer = sql.begin(this.own, scope, fingerprint, token, lease);
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
		return access("renew", () -> this.own.update(statements().renew, lease, lease, lease, scope, token) == 1);
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
		// Typed, so that a null (result not kept) needs no round trip to learn the column types.
		SqlParameterValue kind = new SqlParameterValue(Types.VARCHAR, (outcome != null) ? outcome.kind().code() : null);
		SqlParameterValue payload = new SqlParameterValue(Types.BINARY, (outcome != null) ? outcome.payload() : null);
		return access("complete", () -> this.own.update(statements().complete, kind, payload, ttl.toMillis(),
				scope, token) == 1);
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl,
			SpentMarker marker) {
		SqlParameterValue kind = new SqlParameterValue(Types.VARCHAR, (outcome != null) ? outcome.kind().code() : null);
		SqlParameterValue payload = new SqlParameterValue(Types.BINARY, (outcome != null) ? outcome.payload() : null);
		SqlParameterValue resource = new SqlParameterValue(Types.VARCHAR, marker.resource());
		return access("complete", () -> this.own.update(statements().completeSpent, kind, payload,
				ttl.plus(marker.retention()).toMillis(), ttl.toMillis(), marker.status(), resource, scope, token) == 1);
	}

	@Override
	public boolean release(String scope, String token) {
		return access("release", () -> {
			JdbcStatements sql = statements();
			return sql.deleteHeld(this.own, scope, token)
					|| this.own.update(sql.completeApplied, this.appliedRetentionMillis, scope, token) == 1;
		});
	}

	@Override
	public Optional<IdempotencyRecord> find(String scope) {
		return access("find", () -> this.own.query(this.sql.inspect(), (rs, rowNum) -> {
			Instant now = this.sql.instant(rs, "db_now");
			String kind = rs.getString("outcome_kind");
			Long size = rs.getObject("outcome_size", Long.class);
			return new IdempotencyRecord(scope, state(rs.getString("state")), this.sql.instant(rs, "created_at"),
					this.sql.instant(rs, "expires_at"), now, (kind != null) ? StoredOutcome.Kind.ofCode(kind) : null,
					(kind != null) ? size : null);
		}, scope).stream().findFirst());
	}

	@Override
	public boolean delete(String scope) {
		return access("delete", () -> this.sql.deleteAny(this.own, scope));
	}

	@Override
	public boolean openStream(String scope, String token, byte[] head) {
		return access("openStream", () -> this.own.update(statements().openStream(), head, scope, token) == 1);
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
		return access("appendEvents", () -> this.own.update(statement, args) == events.size());
	}

	@Override
	public boolean completeStream(String scope, String token, Duration ttl) {
		return access("completeStream",
				() -> this.own.update(statements().completeStream(), ttl.toMillis(), scope, token) == 1);
	}

	@Override
	public Optional<StreamSlice> readStream(String scope, long afterSequence, int max) {
		return access("readStream", () -> this.own.query(this.sql.readStream, (rs) -> {
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

	/** See {@link JdbcIdempotencyStore#markApplied}. */
	void markApplied(String scope, String token) {
		// A repeated mark can change nothing, and a MariaDB or MySQL driver set to count changed rows
		// (useAffectedRows=true) then answers 0: whether the mark holds is read again, in the same transaction.
		boolean marked = access("markApplied",
				() -> this.jdbcTemplate.update(this.joined.markApplied, this.appliedRetentionMillis, scope, token) == 1
						|| Long.valueOf(1).equals(
								this.jdbcTemplate.queryForObject(this.joined.appliedBy, Long.class, scope, token)));
		if (!marked) {
			throw new LeaseLostException(scope);
		}
	}

	/** See {@link JdbcIdempotencyStore#purgeExpired}. */
	int purgeExpired(int batchSize) {
		if (batchSize < 1) {
			throw new IllegalArgumentException("batchSize must be positive, was " + batchSize);
		}
		return access("purge", () -> {
			JdbcStatements statements = statementsOn(this.jdbcTemplate);
			int dropped;
			do {
				dropped = statements.dropSpentAnswers(this.jdbcTemplate, batchSize);
			}
			while (dropped == batchSize);
			int total = 0;
			int deleted;
			do {
				// Never on a request thread, and a batch may take longer than a call's network timeout.
				deleted = statements.purge(this.jdbcTemplate, batchSize);
				total += deleted;
			}
			while (deleted == batchSize);
			return total;
		});
	}

	DataSource dataSource() {
		return this.jdbcTemplate.getDataSource();
	}

	/**
	 * The statements a call runs: those that relax their commit only when the call is its own
	 * transaction, never when it joins one bound to the calling thread (as JdbcTemplate would).
	 */
	private JdbcStatements statements() {
		return statementsOn(this.own);
	}

	private JdbcStatements statementsOn(JdbcTemplate template) {
		return (this.sql == this.joined || TransactionSynchronizationManager.getResource(template.getDataSource()) != null)
				? this.joined : this.sql;
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
		catch (DataAccessException | TransactionException ex) {
			// TransactionException: the MariaDB purge runs its two statements in a transaction of its own.
			throw new IdempotencyStoreException(operation + " failed on table " + this.table, ex);
		}
	}

}
