package dev.modelgate.idempotency.jdbc;

import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.jdbc.datasource.DelegatingDataSource;
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
import dev.modelgate.idempotency.core.internal.TimeBoundedIdempotencyStore;

/**
 * An {@link IdempotencyStore} in a PostgreSQL, MariaDB or MySQL table (see {@link JdbcDatabase}): one
 * row per scope hash, which is the primary key, so the database decides who runs an operation and
 * keeps deciding after a crash. The table is created from the database's script (see
 * {@link JdbcIdempotencySchema}); every statement is in the database's {@link JdbcStatements}
 * ({@link PostgresStatements}, {@link MariaDbStatements}), this class only runs them.
 *
 * <p>Every deadline is computed and compared by the database ({@code statement_timestamp()} on
 * PostgreSQL, {@code UTC_TIMESTAMP(6)} on MariaDB and MySQL: each the start of the statement), never
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
 * <p>Statements run through the given {@link JdbcTemplate}, so without a {@link CallLimit} they
 * join a transaction bound to the calling thread; callers run {@code begin}, {@code renew},
 * {@code complete} and {@code release} outside business transactions (the
 * {@code IdempotencyCoordinator} runs them on its own threads, or, with a call limit, on the
 * caller's thread on a connection of their own). Every database failure surfaces as an
 * {@link IdempotencyStoreException}.
 *
 * <p>Each transition is one statement, one round trip and one connection checkout, run as its own
 * transaction (autocommit, no {@code BEGIN}/{@code COMMIT} around it): {@code begin} inserts, takes
 * over an expired record, or reads what the answer needs, all in one statement (on PostgreSQL; on
 * MariaDB and MySQL an insert, and for a key that exists a read and, for an expired one, the
 * conditional takeover, see {@link MariaDbStatements#begin}); {@code complete},
 * {@code renew} and {@code release} are one conditional write each (a release of an applied record
 * is two); {@link #markApplied} is one statement on the business transaction's own connection. By
 * default {@code begin} does not wait for PostgreSQL's WAL flush; the writes that settle a record
 * do (see the four-argument constructor).
 *
 * <p>A store built with a {@link CallLimit} bounds its own calls, so that a caller can make them
 * on its own thread instead of handing each to another (see {@link #callTimeLimit()}): every statement
 * of a call that is its own transaction waits at most the limit's network timeout for the database
 * ({@link java.sql.Connection#setNetworkTimeout}, set on the connection for that statement; a pool
 * such as HikariCP puts the connection's own timeout back when it is returned), on a connection of
 * its own even when the calling thread has a transaction bound (as the coordinator's threads never
 * have), and a write larger than a socket send buffer surely holds is sent from a thread of the
 * store's own and waited for at most the limit, since a network timeout bounds reads, not writes.
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

	/** Writes up to this size fit the socket buffers of an idle connection, so sending them does not block. */
	static final int DIRECT_WRITE_LIMIT = 8 * 1024;

	/** Runs the statements; with a {@link CallLimit}, only the applied mark (in the business transaction) and the purge. */
	private final JdbcTemplate jdbcTemplate;

	/** Runs the statements of calls that are their own transaction. */
	private final JdbcTemplate own;

	private final @Nullable CallLimit callLimit;

	/** With a {@link CallLimit}: this store's large writes, from a thread of its own and bounded. */
	private final @Nullable IdempotencyStore largeWrites;

	private final @Nullable ExecutorService largeWriteThreads;

	private final TableName table;

	private final long appliedRetentionMillis;

	/** The most statements one call runs: what its time limit allows for. */
	private final int statementsPerCall;

	/** The statements for calls that run as their own transaction. */
	private final JdbcStatements sql;

	/** The statements for calls that join a transaction bound to the calling thread: never relaxed. */
	private final JdbcStatements joined;

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
		this(jdbcTemplate, tableName, appliedRetention, synchronousCommit, null);
	}

	/**
	 * Creates a store that, given a {@code callLimit}, bounds its own calls (see the class
	 * description), so that the coordinator calls it on the request thread when the limit fits within
	 * its operation timeout.
	 * @param jdbcTemplate runs the statements
	 * @param tableName the table, {@code name} or {@code schema.name}
	 * @param appliedRetention as in {@link #JdbcIdempotencyStore(JdbcTemplate, String, Duration, boolean)}
	 * @param synchronousCommit as in {@link #JdbcIdempotencyStore(JdbcTemplate, String, Duration, boolean)}
	 * @param callLimit how long the template's DataSource can make a caller wait for a connection,
	 * and the network timeout to give each statement; {@code null} when calls are not bounded here
	 * @throws IllegalArgumentException when the table name is not a plain SQL identifier
	 */
	public JdbcIdempotencyStore(JdbcTemplate jdbcTemplate, String tableName, Duration appliedRetention,
			boolean synchronousCommit, @Nullable CallLimit callLimit) {
		this(JdbcDatabase.POSTGRESQL, jdbcTemplate, tableName, appliedRetention, synchronousCommit, callLimit);
	}

	/**
	 * Creates a store on the given database, which, given a {@code callLimit}, bounds its own calls
	 * (see the class description).
	 * @param database the database the template's DataSource is on, whose statements the store runs
	 * @param jdbcTemplate runs the statements
	 * @param tableName the table, {@code name} or {@code schema.name}
	 * @param appliedRetention as in {@link #JdbcIdempotencyStore(JdbcTemplate, String, Duration, boolean)}
	 * @param synchronousCommit as in {@link #JdbcIdempotencyStore(JdbcTemplate, String, Duration, boolean)};
	 * PostgreSQL only: MariaDB and MySQL commit every write as the server is configured
	 * ({@code innodb_flush_log_at_trx_commit})
	 * @param callLimit as in {@link #JdbcIdempotencyStore(JdbcTemplate, String, Duration, boolean, CallLimit)}
	 * @throws IllegalArgumentException when the table name is not a plain SQL identifier
	 */
	public JdbcIdempotencyStore(JdbcDatabase database, JdbcTemplate jdbcTemplate, String tableName,
			Duration appliedRetention, boolean synchronousCommit, @Nullable CallLimit callLimit) {
		if (appliedRetention.isNegative() || appliedRetention.isZero()) {
			throw new IllegalArgumentException("appliedRetention must be positive, was " + appliedRetention);
		}
		this.jdbcTemplate = jdbcTemplate;
		this.table = TableName.of(tableName);
		this.appliedRetentionMillis = appliedRetention.toMillis();
		this.statementsPerCall = database.statementsPerCall();
		this.joined = database.statements(this.table.qualified(), false);
		this.sql = (synchronousCommit || database != JdbcDatabase.POSTGRESQL) ? this.joined
				: database.statements(this.table.qualified(), true);
		this.callLimit = callLimit;
		if (callLimit == null) {
			this.own = jdbcTemplate;
			this.largeWrites = null;
			this.largeWriteThreads = null;
		}
		else {
			this.own = new NetworkBoundedJdbcTemplate(jdbcTemplate, callLimit.networkTimeout());
			this.largeWriteThreads = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
					new SynchronousQueue<>(), largeWriteThreadFactory());
			this.largeWrites = new TimeBoundedIdempotencyStore(new JdbcIdempotencyStore(this),
					this.largeWriteThreads, callLimit.total());
		}
	}

	/** The same store without large-write threads: what {@link #largeWrites} runs on them. */
	private JdbcIdempotencyStore(JdbcIdempotencyStore store) {
		this.jdbcTemplate = store.jdbcTemplate;
		this.own = store.own;
		this.table = store.table;
		this.appliedRetentionMillis = store.appliedRetentionMillis;
		this.statementsPerCall = store.statementsPerCall;
		this.joined = store.joined;
		this.sql = store.sql;
		this.callLimit = store.callLimit;
		this.largeWrites = null;
		this.largeWriteThreads = null;
	}

	/** {@return {@code jdbc}} */
	@Override
	public String type() {
		return "jdbc";
	}

	/**
	 * With a {@link CallLimit}: the longest a call can take, the limit's
	 * {@linkplain CallLimit#total() total} times the most statements a call runs, each with its own
	 * connection checkout ({@link JdbcDatabase#statementsPerCall()}: twice on PostgreSQL, where a
	 * release can be two statements; three times on MariaDB and MySQL, where a begin can be three).
	 * Without one, {@code null}: the caller bounds calls.
	 */
	@Override
	public @Nullable Duration callTimeLimit() {
		return (this.callLimit != null) ? this.callLimit.total().multipliedBy(this.statementsPerCall) : null;
	}

	/** Stops the threads that sent large writes, if any. */
	public void close() {
		if (this.largeWriteThreads != null) {
			this.largeWriteThreads.shutdownNow();
		}
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
		if (this.largeWrites != null && outcome != null && outcome.payload().length > DIRECT_WRITE_LIMIT) {
			return this.largeWrites.complete(scope, token, outcome, ttl);
		}
		// Typed, so that a null (result not kept) needs no round trip to learn the column types.
		SqlParameterValue kind = new SqlParameterValue(Types.VARCHAR, (outcome != null) ? outcome.kind().code() : null);
		SqlParameterValue payload = new SqlParameterValue(Types.BINARY, (outcome != null) ? outcome.payload() : null);
		return access("complete", () -> this.own.update(statements().complete, kind, payload, ttl.toMillis(),
				scope, token) == 1);
	}

	/**
	 * Completes the record as {@link #complete(String, String, StoredOutcome, Duration)} does, and
	 * keeps it for {@code ttl} plus the marker's retention; from {@code ttl} on, {@code begin} answers
	 * from the marker, and {@link #purgeExpired} drops the answer's bytes.
	 */
	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl,
			SpentMarker marker) {
		if (this.largeWrites != null && outcome != null && outcome.payload().length > DIRECT_WRITE_LIMIT) {
			return this.largeWrites.complete(scope, token, outcome, ttl, marker);
		}
		SqlParameterValue kind = new SqlParameterValue(Types.VARCHAR, (outcome != null) ? outcome.kind().code() : null);
		SqlParameterValue payload = new SqlParameterValue(Types.BINARY, (outcome != null) ? outcome.payload() : null);
		SqlParameterValue resource = new SqlParameterValue(Types.VARCHAR, marker.resource());
		return access("complete", () -> this.own.update(statements().completeSpent, kind, payload,
				ttl.plus(marker.retention()).toMillis(), ttl.toMillis(), marker.status(), resource, scope, token) == 1);
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
		if (this.largeWrites != null && head.length > DIRECT_WRITE_LIMIT) {
			return this.largeWrites.openStream(scope, token, head);
		}
		return access("openStream", () -> this.own.update(statements().openStream(), head, scope, token) == 1);
	}

	@Override
	public boolean appendEvents(String scope, String token, long fromSequence, List<byte[]> events) {
		if (events.isEmpty()) {
			throw new IllegalArgumentException("events must not be empty");
		}
		if (this.largeWrites != null && size(events) > DIRECT_WRITE_LIMIT) {
			return this.largeWrites.appendEvents(scope, token, fromSequence, events);
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

	/**
	 * Deletes records past their expiry, {@code batchSize} rows per statement so that no statement
	 * holds many row locks for long, until none is left; first drops the answers of spent keys whose
	 * ttl is over (their markers stay until their own expiry, then go like any record).
	 * @param batchSize the most rows one statement deletes
	 * @return how many rows were deleted
	 * @throws IdempotencyStoreException when the database cannot be asked
	 */
	public int purgeExpired(int batchSize) {
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
				deleted = statementsOn(this.jdbcTemplate).purge(this.jdbcTemplate, batchSize);
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

	private static long size(List<byte[]> events) {
		long size = 0;
		for (byte[] event : events) {
			size += event.length;
		}
		return size;
	}

	private static java.util.concurrent.ThreadFactory largeWriteThreadFactory() {
		AtomicInteger count = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, "modelgate-idempotency-jdbc-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
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

	/**
	 * How a store bounds its own calls: the longest its DataSource makes a caller wait for a
	 * connection (a pool's checkout timeout, and its validation of an idle connection), and the
	 * network timeout each statement gets. The DataSource's connections must support
	 * {@link java.sql.Connection#setNetworkTimeout} (the PostgreSQL and MariaDB drivers and MySQL
	 * Connector/J do; every statement fails
	 * otherwise), and a pool must put a connection's own timeout back when it is returned
	 * (HikariCP does), or the application's own statements on that connection keep the store's.
	 * @param connectionWait the longest a connection checkout can take
	 * @param networkTimeout the longest a statement waits for the database to answer
	 */
	public record CallLimit(Duration connectionWait, Duration networkTimeout) {

		public CallLimit {
			if (connectionWait.isNegative() || networkTimeout.isNegative() || networkTimeout.isZero()) {
				throw new IllegalArgumentException("connectionWait must not be negative and networkTimeout must be "
						+ "positive, were " + connectionWait + " and " + networkTimeout);
			}
		}

		/** {@return the longest one statement can take, its connection checkout included} */
		public Duration total() {
			return this.connectionWait.plus(this.networkTimeout);
		}

	}

	/**
	 * The statements of calls that are their own transaction: on a connection of their own (the
	 * DataSource behind a wrapper, which no transaction is bound to), each with the network timeout.
	 */
	private static final class NetworkBoundedJdbcTemplate extends JdbcTemplate {

		private final int networkTimeoutMillis;

		NetworkBoundedJdbcTemplate(JdbcTemplate template, Duration networkTimeout) {
			super(new DelegatingDataSource(template.getDataSource()));
			setFetchSize(template.getFetchSize());
			setMaxRows(template.getMaxRows());
			setQueryTimeout(template.getQueryTimeout());
			setExceptionTranslator(template.getExceptionTranslator());
			this.networkTimeoutMillis = Math.toIntExact(Math.max(1, networkTimeout.toMillis()));
		}

		@Override
		protected void applyStatementSettings(Statement statement) throws SQLException {
			super.applyStatementSettings(statement);
			// The statement's connection is the pool's (a pool hands out its proxy), so the pool resets it.
			statement.getConnection().setNetworkTimeout(Runnable::run, this.networkTimeoutMillis);
		}

	}

}
