package dev.modelgate.idempotency.jdbc;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.IdempotencyContext;
import dev.modelgate.idempotency.core.IdempotencyContext.Binding;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.jdbc.CountingDataSource.Counts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What each transition costs the database, counted on a real server so that the counts cannot grow
 * unnoticed: one statement on one connection checkout per transition, in autocommit (no transaction
 * round trips of its own), whatever {@code begin} answers; the applied mark one statement on the
 * business transaction's connection. A begin, which a later write confirms, relaxes its commit when
 * it runs as its own transaction, and only then; complete, release and renew never do.
 */
@Tag("store")
class JdbcStoreRoundTripTests {

	private static final String TABLE = "modelgate_idempotency_roundtrip_test";

	private static final String BUSINESS_TABLE = "modelgate_idempotency_roundtrip_business";

	private static final Duration LONG = Duration.ofMinutes(5);

	private static final Duration SHORT_LEASE = Duration.ofMillis(300);

	private static final StoredOutcome OUTCOME = new StoredOutcome(StoredOutcome.Kind.RESPONSE,
			"ok".getBytes(StandardCharsets.UTF_8));

	private final CountingDataSource dataSource = new CountingDataSource(database().dataSource());

	private final JdbcTemplate jdbcTemplate = new JdbcTemplate(this.dataSource);

	private final JdbcIdempotencyStore store = database().store(this.jdbcTemplate, TABLE);

	/** {@return the server this class runs on; its MariaDB subclass says MariaDB} */
	TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

	private String scope;

	@BeforeEach
	void newScope() {
		database().createOnce(TABLE);
		database().createBusinessTableOnce(BUSINESS_TABLE, "id SERIAL PRIMARY KEY, scope VARCHAR(64) NOT NULL");
		this.scope = randomHex();
	}

	@Test
	void newKeyBeginsRelaxedAndCompletesDurablyWithOneStatementOnOneConnectionEach() {
		String token = randomHex();
		assertThat(this.store.begin(this.scope, "fp", token, LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
		assertOneRelaxedStatement(this.dataSource.take());
		assertThat(this.store.complete(this.scope, token, OUTCOME, LONG)).isTrue();
		assertOneSettlingStatement(this.dataSource.take());
	}

	@Test
	void replayIsOneStatementOnOneConnection() {
		completed();
		BeginResult replay = this.store.begin(this.scope, "fp", randomHex(), LONG);
		assertThat(replay.outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(replay.stored()).isEqualTo(OUTCOME);
		assertOneRelaxedStatement(this.dataSource.take());
	}

	@Test
	void inProgressAndMismatchAreOneStatementOnOneConnectionEach() {
		acquire(LONG);
		assertThat(this.store.begin(this.scope, "fp", randomHex(), LONG).outcome()).isEqualTo(Outcome.IN_PROGRESS);
		assertOneRelaxedStatement(this.dataSource.take());
		assertThat(this.store.begin(this.scope, "other", randomHex(), LONG).outcome()).isEqualTo(Outcome.MISMATCH);
		assertOneRelaxedStatement(this.dataSource.take());
	}

	@Test
	void takeOverOfAnExpiredRecordIsOneStatementOnOneConnection() throws Exception {
		acquire(SHORT_LEASE);
		DatabaseDeadlines.awaitLeaseExpired(database(), TABLE, this.scope);
		this.dataSource.take();
		assertThat(this.store.begin(this.scope, "fp", randomHex(), LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
		assertOneRelaxedStatement(this.dataSource.take());
	}

	@Test
	void renewAndReleaseAreOneDurableStatementOnOneConnectionEach() {
		String token = acquire(LONG);
		assertThat(this.store.renew(this.scope, token, LONG)).isTrue();
		assertOneSettlingStatement(this.dataSource.take());
		assertThat(this.store.release(this.scope, token)).isTrue();
		assertOneSettlingStatement(this.dataSource.take());
	}

	@Test
	void appliedMarkIsOneStatementOnTheBusinessTransactionsConnection() {
		DataSourceTransactionManager transactionManager = new DataSourceTransactionManager(this.dataSource);
		TransactionTemplate transactions = new TransactionTemplate(transactionManager);
		String token = acquire(LONG);
		transactions.executeWithoutResult((status) -> insertBusinessRow());
		Counts withoutAttempt = this.dataSource.take();

		transactionManager.addListener(new MarkAppliedTransactionListener(this.store));
		try (Binding binding = IdempotencyContext.bind(new IdempotencyContext.Held(this.scope, token))) {
			transactions.executeWithoutResult((status) -> insertBusinessRow());
		}
		Counts withAttempt = this.dataSource.take();
		assertThat(withAttempt.connections()).isEqualTo(withoutAttempt.connections()).isEqualTo(1);
		assertThat(withAttempt.transactionCalls()).isEqualTo(withoutAttempt.transactionCalls());
		assertThat(withAttempt.statements()).hasSize(withoutAttempt.statements().size() + 1);
		String mark = withAttempt.statements().get(withAttempt.statements().size() - 1);
		assertThat(mark).startsWith("UPDATE").doesNotContain("synchronous_commit");
		assertThat(this.jdbcTemplate.queryForObject("SELECT state FROM " + TABLE + " WHERE scope = ?", String.class,
				this.scope))
			.isEqualTo("applied");
	}

	@Test
	void relaxedCommitLastsOnlyForTheStatementsOwnTransaction() {
		PostgresStatements relaxed = new PostgresStatements(TABLE, true);
		TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(this.dataSource));
		String inside = transactions.execute((status) -> {
			relaxed.begin(this.jdbcTemplate, this.scope, "fp", randomHex(), 1000L);
			return synchronousCommit();
		});
		String after = transactions.execute((status) -> synchronousCommit());
		assertThat(inside).isEqualTo("off");
		assertThat(after).isEqualTo("on");
	}

	@Test
	void callsThatJoinABoundTransactionLeaveItsCommitAlone() {
		TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(this.dataSource));
		String inside = transactions.execute((status) -> {
			assertThat(this.store.begin(this.scope, "fp", randomHex(), LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
			return synchronousCommit();
		});
		assertThat(inside).isEqualTo("on");
	}

	@Test
	void synchronousCommitStoreNeverRelaxes() {
		JdbcIdempotencyStore synchronous = new JdbcIdempotencyStore(this.jdbcTemplate, TABLE,
				JdbcIdempotencyStore.DEFAULT_APPLIED_RETENTION, true);
		String token = randomHex();
		assertThat(synchronous.begin(this.scope, "fp", token, LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
		assertThat(synchronous.complete(this.scope, token, OUTCOME, LONG)).isTrue();
		Counts counts = this.dataSource.take();
		assertThat(counts.statements()).hasSize(2).noneMatch((sql) -> sql.contains("synchronous_commit"));
	}

	/** One statement that a later write confirms, so it does not wait for the disk flush. */
	private void assertOneRelaxedStatement(Counts counts) {
		assertOneStatement(counts);
		assertThat(counts.statements().get(0)).contains("set_config('synchronous_commit', 'off', true)");
	}

	/** One statement that waits for the disk flush. */
	private void assertOneSettlingStatement(Counts counts) {
		assertOneStatement(counts);
		assertThat(counts.statements().get(0)).doesNotContain("synchronous_commit");
	}

	private void assertOneStatement(Counts counts) {
		assertThat(counts.connections()).as("connection checkouts").isEqualTo(1);
		assertThat(counts.statements()).as("statements").hasSize(1);
		assertThat(counts.transactionCalls()).as("transaction round trips").isZero();
	}

	private String acquire(Duration lease) {
		String token = randomHex();
		assertThat(this.store.begin(this.scope, "fp", token, lease).outcome()).isEqualTo(Outcome.ACQUIRED);
		this.dataSource.take();
		return token;
	}

	private void completed() {
		String token = acquire(LONG);
		assertThat(this.store.complete(this.scope, token, OUTCOME, LONG)).isTrue();
		this.dataSource.take();
	}

	private void insertBusinessRow() {
		this.jdbcTemplate.update("INSERT INTO " + BUSINESS_TABLE + " (scope) VALUES (?)", this.scope);
	}

	private String synchronousCommit() {
		return this.jdbcTemplate.queryForObject("SHOW synchronous_commit", String.class);
	}

	private static String randomHex() {
		return UUID.randomUUID().toString().replace("-", "");
	}

}
