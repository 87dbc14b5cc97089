package dev.modelgate.idempotency.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StoredOutcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A store built with a call limit, on real PostgreSQL through a real HikariCP pool: what lets the
 * coordinator call it on the request thread instead of handing each call to another thread. A
 * statement that waits for the database longer than the network timeout fails within it; the pool
 * gets its connections back with their own timeout; calls that are their own transaction stay so
 * when the caller has a transaction bound; large writes go from a thread of the store's own.
 */
@Tag("store")
class JdbcBoundedCallsTests {

	private static final String TABLE = "modelgate_idempotency_bounded_test";

	private static final Duration LONG = Duration.ofMinutes(5);

	private static final Duration NETWORK_TIMEOUT = Duration.ofMillis(500);

	private static final JdbcIdempotencyStore.CallLimit LIMIT = new JdbcIdempotencyStore.CallLimit(
			Duration.ofMillis(250), NETWORK_TIMEOUT);

	private final ThreadRecordingDataSource dataSource = new ThreadRecordingDataSource(pool());

	private final JdbcIdempotencyStore store = database().store(new JdbcTemplate(this.dataSource), TABLE,
			JdbcIdempotencyStore.DEFAULT_APPLIED_RETENTION, LIMIT);

	private String scope;

	/** {@return the server this class runs on; its MariaDB subclass says MariaDB} */
	TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

	@BeforeEach
	void newScope() {
		database().createOnce(TABLE);
		this.scope = UUID.randomUUID().toString().replace("-", "");
	}

	@AfterEach
	void close() {
		this.store.close();
	}

	@Test
	void reportsTheLongestStatementTimesTheMostStatementsOfACallAsItsCallTimeLimitAndNoneWithoutALimit() {
		// A release can be two statements on PostgreSQL, a begin three on MariaDB, each with its own checkout.
		int statements = (database() == TestDatabase.POSTGRESQL) ? 2 : 3;
		assertThat(this.store.callTimeLimit()).isEqualTo(Duration.ofMillis(750).multipliedBy(statements));
		assertThat(database().store(new JdbcTemplate(this.dataSource), TABLE).callTimeLimit()).isNull();
	}

	@Test
	@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
	void aStatementThatWaitsForTheDatabaseLongerThanTheNetworkTimeoutFailsWithinIt() throws Exception {
		String token = UUID.randomUUID().toString();
		this.store.begin(this.scope, "fp", token, Duration.ofMillis(1));
		DatabaseDeadlines.awaitLeaseExpired(database(), TABLE, this.scope);
		// The record expired: a begin takes it over, and waits for the row lock held here.
		try (Connection locker = database().dataSource().getConnection()) {
			locker.setAutoCommit(false);
			try (PreparedStatement lock = locker
				.prepareStatement("SELECT 1 FROM " + TABLE + " WHERE scope = ? FOR UPDATE")) {
				lock.setString(1, this.scope);
				lock.executeQuery().close();
			}
			long started = System.nanoTime();
			assertThatExceptionOfType(IdempotencyStoreException.class)
				.isThrownBy(() -> this.store.begin(this.scope, "fp", UUID.randomUUID().toString(), LONG));
			Duration waited = Duration.ofNanos(System.nanoTime() - started);
			assertThat(waited).isGreaterThanOrEqualTo(NETWORK_TIMEOUT.minusMillis(50))
				.isLessThan(LIMIT.total().plusMillis(500));
			locker.rollback();
		}
		// The pool threw the broken connection away: the next call gets a good one. (Not this scope's
		// row: the backend of the aborted statement may still take it over, once the lock is gone.)
		assertThat(this.store.begin(this.scope + "-next", "fp", UUID.randomUUID().toString(), LONG).outcome())
			.isEqualTo(Outcome.ACQUIRED);
	}

	@Test
	void theConnectionGoesBackToThePoolWithItsOwnNetworkTimeout() throws SQLException {
		HikariDataSource pool = pool();
		int own;
		try (Connection connection = pool.getConnection()) {
			own = connection.getNetworkTimeout();
		}
		assertThat(own).isNotEqualTo((int) NETWORK_TIMEOUT.toMillis());
		// The pool lends a thread the connection it last returned.
		this.store.begin(this.scope, "fp", UUID.randomUUID().toString(), LONG);
		try (Connection connection = pool.getConnection()) {
			assertThat(connection.getNetworkTimeout()).isEqualTo(own);
		}
	}

	@Test
	void aCallThatIsItsOwnTransactionStaysSoWhenTheCallerHasATransactionBound() {
		TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(this.dataSource));
		transaction.executeWithoutResult((status) -> {
			this.store.begin(this.scope, "fp", UUID.randomUUID().toString(), LONG);
			status.setRollbackOnly();
		});
		assertThat(this.store.find(this.scope)).isPresent();
		// Without a limit the store joins the bound transaction, as it always did on the caller's thread.
		JdbcIdempotencyStore joining = database().store(new JdbcTemplate(this.dataSource), TABLE);
		String other = this.scope + "-joined";
		transaction.executeWithoutResult((status) -> {
			joining.begin(other, "fp", UUID.randomUUID().toString(), LONG);
			status.setRollbackOnly();
		});
		assertThat(joining.find(other)).isEmpty();
	}

	@Test
	void largeWritesGoFromTheStoresOwnThreadAndEverythingElseFromTheCaller() {
		String caller = Thread.currentThread().getName();
		String token = UUID.randomUUID().toString();
		assertThat(this.store.begin(this.scope, "fp", token, LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
		assertThat(this.dataSource.take()).containsOnly(caller);
		byte[] large = new byte[JdbcIdempotencyStore.DIRECT_WRITE_LIMIT + 1];
		Arrays.fill(large, (byte) 'x');
		StoredOutcome outcome = new StoredOutcome(StoredOutcome.Kind.RESPONSE, large);
		assertThat(this.store.complete(this.scope, token, outcome, LONG)).isTrue();
		assertThat(this.dataSource.take()).singleElement().asString().startsWith("modelgate-idempotency-jdbc-");
		BeginResult replay = this.store.begin(this.scope, "fp", UUID.randomUUID().toString(), LONG);
		assertThat(replay.stored()).isEqualTo(outcome);
		assertThat(this.dataSource.take()).containsOnly(caller);
		String small = this.scope + "-small";
		String smallToken = UUID.randomUUID().toString();
		this.store.begin(small, "fp", smallToken, LONG);
		assertThat(this.store.complete(small, smallToken,
				new StoredOutcome(StoredOutcome.Kind.RESPONSE, new byte[] { 'o', 'k' }), LONG)).isTrue();
		assertThat(this.dataSource.take()).containsOnly(caller);
	}

	private HikariDataSource pool() {
		return database().hikari();
	}

	/** Which threads checked connections out. */
	private static final class ThreadRecordingDataSource extends DelegatingDataSource {

		private final List<String> threads = new CopyOnWriteArrayList<>();

		ThreadRecordingDataSource(DataSource target) {
			super(target);
		}

		@Override
		public Connection getConnection() throws SQLException {
			this.threads.add(Thread.currentThread().getName());
			return super.getConnection();
		}

		List<String> take() {
			List<String> taken = List.copyOf(this.threads);
			this.threads.clear();
			return taken;
		}

	}

}
