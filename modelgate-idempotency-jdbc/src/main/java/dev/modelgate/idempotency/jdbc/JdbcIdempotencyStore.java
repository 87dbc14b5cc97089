package dev.modelgate.idempotency.jdbc;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyRecord;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamSlice;
import dev.modelgate.idempotency.core.internal.TimeBoundedIdempotencyStore;

/**
 * An {@link IdempotencyStore} in a PostgreSQL, MariaDB or MySQL table (see {@link JdbcDatabase}): one
 * row per scope hash, which is the primary key, so the database decides who runs an operation and
 * keeps deciding after a crash. The table is created from the database's script (see
 * {@link JdbcIdempotencySchema}); every statement is in the database's {@link JdbcStatements}
 * ({@link PostgresStatements}, {@link MariaDbStatements}), run by {@link JdbcRecords}; this class
 * chooses the thread a call runs on.
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

	/** Writes up to this size fit the socket buffers of an idle connection, so sending them does not block. */
	static final int DIRECT_WRITE_LIMIT = 8 * 1024;

	/** Runs the statements on the calling thread. */
	private final JdbcRecords records;

	private final @Nullable CallLimit callLimit;

	/** The most statements one call runs: what its time limit allows for. */
	private final int statementsPerCall;

	/** With a {@link CallLimit}: the large writes, from a thread of the store's own and bounded. */
	private final @Nullable IdempotencyStore largeWrites;

	private final @Nullable ExecutorService largeWriteThreads;

	/**
	 * Creates a store that keeps applied records for {@link #DEFAULT_APPLIED_RETENTION}.
	 * @param jdbcTemplate runs the statements
	 * @param tableName the table, {@code name} or {@code schema.name}
	 * @throws IllegalArgumentException when the table name is not a plain SQL identifier
	 */
	public JdbcIdempotencyStore(JdbcTemplate jdbcTemplate, String tableName) {
		this(jdbcTemplate, tableName, DEFAULT_APPLIED_RETENTION, false);
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
		this(JdbcDatabase.POSTGRESQL, jdbcTemplate, tableName, appliedRetention, synchronousCommit, null);
	}

	/**
	 * Creates a store on the given database, which, given a {@code callLimit}, bounds its own calls
	 * (see the class description), so that the coordinator calls it on the request thread when the
	 * limit fits within its operation timeout.
	 * @param database the database the template's DataSource is on, whose statements the store runs
	 * @param jdbcTemplate runs the statements
	 * @param tableName the table, {@code name} or {@code schema.name}
	 * @param appliedRetention as in {@link #JdbcIdempotencyStore(JdbcTemplate, String, Duration, boolean)}
	 * @param synchronousCommit as in {@link #JdbcIdempotencyStore(JdbcTemplate, String, Duration, boolean)};
	 * PostgreSQL only: MariaDB and MySQL commit every write as the server is configured
	 * ({@code innodb_flush_log_at_trx_commit})
	 * @param callLimit how long the template's DataSource can make a caller wait for a connection,
	 * and the network timeout to give each statement; {@code null} when calls are not bounded here
	 * @throws IllegalArgumentException when the table name is not a plain SQL identifier
	 */
	public JdbcIdempotencyStore(JdbcDatabase database, JdbcTemplate jdbcTemplate, String tableName,
			Duration appliedRetention, boolean synchronousCommit, @Nullable CallLimit callLimit) {
		if (appliedRetention.isNegative() || appliedRetention.isZero()) {
			throw new IllegalArgumentException("appliedRetention must be positive, was " + appliedRetention);
		}
		TableName table = TableName.of(tableName);
		this.callLimit = callLimit;
		this.statementsPerCall = database.statementsPerCall();
		JdbcTemplate own = (callLimit != null) ? new NetworkBoundedJdbcTemplate(jdbcTemplate, callLimit.networkTimeout())
				: jdbcTemplate;
		this.records = new JdbcRecords(database, jdbcTemplate, own, table, appliedRetention, synchronousCommit);
		if (callLimit == null) {
			this.largeWrites = null;
			this.largeWriteThreads = null;
		}
		else {
			this.largeWriteThreads = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
					new SynchronousQueue<>(), largeWriteThreadFactory());
			this.largeWrites = new TimeBoundedIdempotencyStore(this.records, this.largeWriteThreads, callLimit.total());
		}
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
		return this.records.begin(scope, fingerprint, token, leaseTtl);
	}

	@Override
	public boolean renew(String scope, String token, Duration leaseTtl) {
		return this.records.renew(scope, token, leaseTtl);
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
		return writer(size(outcome)).complete(scope, token, outcome, ttl);
	}

	/**
	 * Completes the record as {@link #complete(String, String, StoredOutcome, Duration)} does, and
	 * keeps it for {@code ttl} plus the marker's retention; from {@code ttl} on, {@code begin} answers
	 * from the marker, and {@link #purgeExpired} drops the answer's bytes.
	 */
	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl,
			SpentMarker marker) {
		return writer(size(outcome)).complete(scope, token, outcome, ttl, marker);
	}

	/**
	 * Deletes the holder's in-progress record. If the holder's transaction already committed (the row
	 * is applied), the effect cannot be undone by letting a retry run again: the row becomes a
	 * completed record without a response instead, kept for the applied retention, and this answers
	 * {@code true}.
	 */
	@Override
	public boolean release(String scope, String token) {
		return this.records.release(scope, token);
	}

	@Override
	public Optional<IdempotencyRecord> find(String scope) {
		return this.records.find(scope);
	}

	@Override
	public boolean delete(String scope) {
		return this.records.delete(scope);
	}

	@Override
	public boolean openStream(String scope, String token, byte[] head) {
		return writer(head.length).openStream(scope, token, head);
	}

	@Override
	public boolean appendEvents(String scope, String token, long fromSequence, List<byte[]> events) {
		return writer(size(events)).appendEvents(scope, token, fromSequence, events);
	}

	@Override
	public boolean completeStream(String scope, String token, Duration ttl) {
		return this.records.completeStream(scope, token, ttl);
	}

	@Override
	public Optional<StreamSlice> readStream(String scope, long afterSequence, int max) {
		return this.records.readStream(scope, afterSequence, max);
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
		this.records.markApplied(scope, token);
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
		return this.records.purgeExpired(batchSize);
	}

	/** {@return the database the records live in, to recognise business transactions on the same one} */
	public DataSource getDataSource() {
		return this.records.dataSource();
	}

	/**
	 * The store a write of {@code size} bytes goes to: with a {@link CallLimit}, one larger than a
	 * socket send buffer surely holds is sent from a thread of the store's own and waited for at most
	 * the limit, since a network timeout bounds reads, not writes.
	 */
	private IdempotencyStore writer(long size) {
		return (this.largeWrites != null && size > DIRECT_WRITE_LIMIT) ? this.largeWrites : this.records;
	}

	private static long size(@Nullable StoredOutcome outcome) {
		return (outcome != null) ? outcome.payload().length : 0;
	}

	private static long size(List<byte[]> events) {
		long size = 0;
		for (byte[] event : events) {
			size += event.length;
		}
		return size;
	}

	private static ThreadFactory largeWriteThreadFactory() {
		AtomicInteger count = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, "modelgate-idempotency-jdbc-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
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

}
