package dev.modelgate.idempotency.jdbc;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.support.TransactionTemplate;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.IdempotencyContext;
import dev.modelgate.idempotency.core.IdempotencyContext.Binding;
import dev.modelgate.idempotency.core.StoredOutcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Transactional completion: a business transaction on the store's database commits the record's
 * "applied" mark with its effects, or rolls back when the attempt lost its lease.
 */
@Tag("store")
class JdbcTransactionalCompletionTests {

	private static final String TABLE = "modelgate_idempotency_tx_test";

	private static final String BUSINESS_TABLE = "modelgate_idempotency_tx_business";

	private static final Duration LONG = Duration.ofMinutes(5);

	private static final Duration SHORT_LEASE = Duration.ofMillis(300);

	private final DataSource dataSource = database().dataSource();

	private final JdbcTemplate jdbcTemplate = new JdbcTemplate(this.dataSource);

	private final JdbcIdempotencyStore store = database().store(this.jdbcTemplate, TABLE);

	/** {@return the server this class runs on; its MariaDB subclass says MariaDB} */
	TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

	private final DataSourceTransactionManager transactionManager = new DataSourceTransactionManager(this.dataSource);

	private final TransactionTemplate transactions = new TransactionTemplate(this.transactionManager);

	private String scope;

	@BeforeEach
	void registerListener() {
		database().createOnce(TABLE);
		database().createBusinessTableOnce(BUSINESS_TABLE, "id SERIAL PRIMARY KEY, scope VARCHAR(64) NOT NULL");
		this.transactionManager.addListener(new MarkAppliedTransactionListener(this.store));
		this.scope = randomHex();
	}

	@Test
	void holderCommitsItsEffectAndTheAppliedMarkTogether() {
		String holder = acquire(LONG);
		try (Binding binding = bind(holder)) {
			this.transactions.executeWithoutResult((status) -> insertBusinessRow());
		}
		assertThat(businessRows()).isEqualTo(1);
		assertThat(state()).isEqualTo("applied");
		assertThat(this.store.begin(this.scope, "fp", randomHex(), LONG).outcome()).isEqualTo(Outcome.IN_PROGRESS);

		assertThat(this.store.complete(this.scope, holder,
				new StoredOutcome(StoredOutcome.Kind.RESPONSE, "ok".getBytes(StandardCharsets.UTF_8)), LONG))
			.isTrue();
		assertThat(this.store.begin(this.scope, "fp", randomHex(), LONG).stored().payload())
			.isEqualTo("ok".getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void holderThatLostItsLeaseHasItsBusinessTransactionRolledBack() throws Exception {
		String stale = acquire(SHORT_LEASE);
		DatabaseDeadlines.awaitLeaseExpired(database(), TABLE, this.scope);
		String current = randomHex();
		assertThat(this.store.begin(this.scope, "fp", current, LONG).outcome()).isEqualTo(Outcome.ACQUIRED);

		try (Binding binding = bind(stale)) {
			assertThatExceptionOfType(LeaseLostException.class)
				.isThrownBy(() -> this.transactions.executeWithoutResult((status) -> insertBusinessRow()));
		}
		assertThat(businessRows()).isZero();
		assertThat(state()).isEqualTo("in_progress");
		assertThat(this.jdbcTemplate.queryForObject("SELECT token FROM " + TABLE + " WHERE scope = ?", String.class,
				this.scope))
			.isEqualTo(current);
	}

	@Test
	void leaseRunningOutWhileTheTransactionRunsRollsItBack() {
		String holder = acquire(SHORT_LEASE);
		try (Binding binding = bind(holder)) {
			// Deadlines are judged at the statement, not at the start of the surrounding transaction.
			assertThatExceptionOfType(LeaseLostException.class)
				.isThrownBy(() -> this.transactions.executeWithoutResult((status) -> {
					insertBusinessRow();
					DatabaseDeadlines.awaitLeaseExpired(database(), TABLE, this.scope);
				}));
		}
		assertThat(businessRows()).isZero();
	}

	@Test
	void crashAfterCommitBeforeCompletionAnswersCompletedWithoutResponse() throws Exception {
		String holder = acquire(SHORT_LEASE);
		try (Binding binding = bind(holder)) {
			this.transactions.executeWithoutResult((status) -> insertBusinessRow());
		}
		// The process dies here: no complete, no release, no heartbeat.
		DatabaseDeadlines.awaitLeaseExpired(database(), TABLE, this.scope);
		this.store.purgeExpired(100);

		BeginResult retry = this.store.begin(this.scope, "fp", randomHex(), LONG);
		assertThat(retry.outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(retry.stored()).isNull();
		assertThat(businessRows()).isEqualTo(1);
	}

	@Test
	void markIsRolledBackWithTheBusinessTransaction() {
		String holder = acquire(LONG);
		this.transactionManager.addListener(new TransactionExecutionListener() {
			@Override
			public void beforeCommit(TransactionExecution transaction) {
				throw new IllegalStateException("commit refused");
			}
		});
		try (Binding binding = bind(holder)) {
			assertThatIllegalStateException()
				.isThrownBy(() -> this.transactions.executeWithoutResult((status) -> insertBusinessRow()));
		}
		assertThat(businessRows()).isZero();
		assertThat(state()).isEqualTo("in_progress");
		assertThat(this.store.release(this.scope, holder)).isTrue();
		assertThat(this.store.begin(this.scope, "fp", randomHex(), LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
	}

	@Test
	void rolledBackTransactionLeavesTheRecordInProgress() {
		String holder = acquire(LONG);
		try (Binding binding = bind(holder)) {
			this.transactions.executeWithoutResult((status) -> {
				insertBusinessRow();
				status.setRollbackOnly();
			});
		}
		assertThat(businessRows()).isZero();
		assertThat(state()).isEqualTo("in_progress");
	}

	@Test
	void severalTransactionsOfOneAttemptAllCommit() {
		String holder = acquire(LONG);
		try (Binding binding = bind(holder)) {
			this.transactions.executeWithoutResult((status) -> insertBusinessRow());
			this.transactions.executeWithoutResult((status) -> insertBusinessRow());
		}
		assertThat(businessRows()).isEqualTo(2);
		assertThat(state()).isEqualTo("applied");
	}

	@Test
	void releaseAfterCommitKeepsTheKeySpent() {
		String holder = acquire(LONG);
		try (Binding binding = bind(holder)) {
			this.transactions.executeWithoutResult((status) -> insertBusinessRow());
		}
		assertThat(this.store.release(this.scope, holder)).isTrue();
		BeginResult retry = this.store.begin(this.scope, "fp", randomHex(), LONG);
		assertThat(retry.outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(retry.stored()).isNull();
	}

	@Test
	void transactionWithoutAnAttemptIsLeftAlone() {
		acquire(LONG);
		this.transactions.executeWithoutResult((status) -> insertBusinessRow());
		assertThat(businessRows()).isEqualTo(1);
		assertThat(state()).isEqualTo("in_progress");
	}

	@Test
	void readOnlyTransactionIsLeftAlone() {
		String holder = acquire(LONG);
		TransactionTemplate readOnly = new TransactionTemplate(this.transactionManager);
		readOnly.setReadOnly(true);
		try (Binding binding = bind(holder)) {
			readOnly.executeWithoutResult((status) -> businessRows());
		}
		assertThat(state()).isEqualTo("in_progress");
	}

	@Test
	void transactionOnAnotherDataSourceIsLeftAlone() {
		String holder = acquire(LONG);
		DataSource other = new DelegatingDataSource(this.dataSource);
		DataSourceTransactionManager otherManager = new DataSourceTransactionManager(other);
		otherManager.addListener(new MarkAppliedTransactionListener(this.store));
		try (Binding binding = bind(holder)) {
			new TransactionTemplate(otherManager).executeWithoutResult(
					(status) -> new JdbcTemplate(other).update("INSERT INTO " + BUSINESS_TABLE + " (scope) VALUES (?)",
							this.scope));
		}
		assertThat(businessRows()).isEqualTo(1);
		assertThat(state()).isEqualTo("in_progress");
	}

	private String acquire(Duration lease) {
		String token = randomHex();
		assertThat(this.store.begin(this.scope, "fp", token, lease).outcome()).isEqualTo(Outcome.ACQUIRED);
		return token;
	}

	private Binding bind(String token) {
		return IdempotencyContext.bind(new IdempotencyContext.Held(this.scope, token));
	}

	private void insertBusinessRow() {
		this.jdbcTemplate.update("INSERT INTO " + BUSINESS_TABLE + " (scope) VALUES (?)", this.scope);
	}

	private int businessRows() {
		return this.jdbcTemplate.queryForObject("SELECT count(*) FROM " + BUSINESS_TABLE + " WHERE scope = ?",
				Integer.class, this.scope);
	}

	private String state() {
		return this.jdbcTemplate.queryForObject("SELECT state FROM " + TABLE + " WHERE scope = ?", String.class,
				this.scope);
	}

	private static String randomHex() {
		return UUID.randomUUID().toString().replace("-", "");
	}

}
