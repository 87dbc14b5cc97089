package dev.modelgate.idempotency.autoconfigure;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;


import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionManagerCustomizationAutoConfiguration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.jdbc.JdbcDatabase;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencyPurger;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencySchema;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencyStore;
import dev.modelgate.idempotency.jdbc.MarkAppliedTransactionListener;
import dev.modelgate.idempotency.testsupport.MariaDbTestServer;
import dev.modelgate.idempotency.testsupport.PostgresTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * When the JDBC store is configured, what it brings along, and when it backs off.
 */
@Tag("boot")
class JdbcStoreConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class));

	private final ApplicationContextRunner withDataSource = this.contextRunner.withBean(DataSource.class,
			PostgresTestServer::dataSource);

	/** The tests that start with the default table name and no schema initialization need it there. */
	@BeforeAll
	static void createTheDefaultTables() {
		JdbcIdempotencySchema.create(PostgresTestServer.dataSource(), JdbcDatabase.POSTGRESQL, "modelgate_idempotency");
		JdbcIdempotencySchema.create(MariaDbTestServer.dataSource(), JdbcDatabase.MARIADB, "modelgate_idempotency");
	}

	@Test
	void storeJdbcWithDataSourceCreatesTheTableAndTheJdbcStore() {
		String table = uniqueTableName();
		this.withDataSource
			.withPropertyValues("modelgate.idempotency.store=jdbc", "modelgate.idempotency.jdbc.table-name=" + table,
					"modelgate.idempotency.jdbc.initialize-schema=always")
			.run((context) -> {
				assertThat(context).hasSingleBean(JdbcIdempotencyStore.class)
					.hasSingleBean(JdbcIdempotencySchemaInitializer.class)
					.hasSingleBean(JdbcIdempotencyPurger.class)
					.hasSingleBean(MarkAppliedTransactionListener.class);
				assertThat(context.getBean(JdbcIdempotencyPurger.class).isRunning()).isTrue();
				assertThat(PostgresTestServer.tableExists(table)).isTrue();
			});
		dropTable(table);
	}

	@Test
	void embeddedH2IsNeverPickedSilently() {
		ApplicationContextRunner withH2 = this.contextRunner.withBean(DataSource.class,
				() -> new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build());
		for (String store : List.of("auto", "jdbc")) {
			withH2.withPropertyValues("modelgate.idempotency.store=" + store).run((context) -> {
				assertThat(context).as("store=%s", store).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(UnsupportedIdempotencyDatabaseException.class)
					.hasMessageContaining("supports PostgreSQL, MariaDB and MySQL")
					.hasMessageContaining("H2");
				FailureAnalysis analysis = new UnsupportedIdempotencyDatabaseFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis.getAction()).contains("modelgate.idempotency.store=redis",
						"modelgate.idempotency.store=memory");
			});
		}
	}

	@Test
	void initializeSchemaNeverLeavesTheDatabaseAloneAndAMissingTableFailsStartUpNamingTheDdl() {
		String table = uniqueTableName();
		this.withDataSource
			.withPropertyValues("modelgate.idempotency.store=jdbc", "modelgate.idempotency.jdbc.table-name=" + table,
					"modelgate.idempotency.jdbc.initialize-schema=never")
			.run((context) -> {
				assertMissingTable(context, table, "META-INF/modelgate/schema/postgresql.sql");
				assertThat(PostgresTestServer.tableExists(table)).isFalse();
			});
	}

	@Test
	void initializeSchemaDefaultsToEmbeddedOnlySoAServerWithoutTheTableFailsStartUp() {
		String table = uniqueTableName();
		this.withDataSource.withPropertyValues("modelgate.idempotency.jdbc.table-name=" + table).run((context) -> {
			assertMissingTable(context, table, "META-INF/modelgate/schema/postgresql.sql");
			assertThat(PostgresTestServer.tableExists(table)).isFalse();
		});
	}

	@Test
	void aTableThatAnotherDatabaseInitializerCreatesIsCheckedAfterIt() {
		String table = uniqueTableName();
		// Stands for Flyway or Liquibase: Spring Boot orders the beans that depend on database
		// initialization after every DatabaseInitializer bean.
		this.withDataSource
			.withBean("migrations", JdbcIdempotencySchemaInitializer.class,
					() -> new JdbcIdempotencySchemaInitializer(PostgresTestServer.dataSource(), table,
							DatabaseInitializationMode.ALWAYS))
			.withPropertyValues("modelgate.idempotency.store=jdbc", "modelgate.idempotency.jdbc.table-name=" + table,
					"modelgate.idempotency.jdbc.initialize-schema=never")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(JdbcIdempotencyStore.class);
				assertThat(PostgresTestServer.tableExists(table)).isTrue();
			});
		dropTable(table);
	}

	@Test
	void aDatabaseThatCannotBeReachedAtStartUpDoesNotStopTheApplication() {
		HikariDataSource pool = new HikariDataSource();
		pool.setJdbcUrl("jdbc:postgresql://127.0.0.1:1/test");
		pool.setUsername("postgres");
		pool.setConnectionTimeout(250);
		pool.setInitializationFailTimeout(-1);
		try (pool) {
			this.contextRunner.withBean(DataSource.class, () -> pool)
				.withPropertyValues("modelgate.idempotency.store=jdbc")
				.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(JdbcIdempotencyStore.class));
		}
	}

	private static void assertMissingTable(AssertableApplicationContext context, String table, String ddl) {
		assertThat(context).hasFailed();
		assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(table);
		MissingIdempotencyTableException missing = findCause(context.getStartupFailure(),
				MissingIdempotencyTableException.class);
		assertThat(missing).as("start-up failure %s", context.getStartupFailure()).isNotNull();
		FailureAnalysis analysis = new MissingIdempotencyTableFailureAnalyzer().analyze(context.getStartupFailure());
		assertThat(analysis.getDescription()).contains(table);
		assertThat(analysis.getAction()).contains("classpath:" + ddl)
			.contains("modelgate.idempotency.jdbc.initialize-schema=always");
	}

	private static <T extends Throwable> T findCause(Throwable failure, Class<T> type) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (type.isInstance(cause)) {
				return type.cast(cause);
			}
		}
		return null;
	}

	@Test
	void storeAutoPicksJdbcWhenThereIsADataSource() {
		this.withDataSource.run((context) -> assertThat(context).hasSingleBean(JdbcIdempotencyStore.class));
	}

	@Test
	void storeMemoryIsNotOverriddenByADataSource() {
		this.withDataSource.withPropertyValues("modelgate.idempotency.store=memory")
			.run((context) -> assertThat(context).hasSingleBean(InMemoryIdempotencyStore.class)
				.doesNotHaveBean(JdbcIdempotencyStore.class)
				.doesNotHaveBean(JdbcIdempotencyPurger.class));
	}

	@Test
	void storeJdbcWithoutDataSourceFailsStartUp() {
		this.contextRunner.withPropertyValues("modelgate.idempotency.store=jdbc")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(NoIdempotencyStoreException.class));
	}

	@Test
	void storeJdbcWithoutSpringJdbcFailsStartUp() {
		this.withDataSource.withClassLoader(new FilteredClassLoader(JdbcTemplate.class))
			.withPropertyValues("modelgate.idempotency.store=jdbc")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(NoIdempotencyStoreException.class));
	}

	@Test
	void backsOffFromAUserStore() {
		this.withDataSource.withBean(IdempotencyStore.class, () -> mock(IdempotencyStore.class))
			.withPropertyValues("modelgate.idempotency.store=jdbc")
			.run((context) -> assertThat(context).doesNotHaveBean(JdbcIdempotencyStore.class)
				.doesNotHaveBean(JdbcIdempotencySchemaInitializer.class)
				.doesNotHaveBean(MarkAppliedTransactionListener.class));
	}

	@Test
	void autoConfiguredTransactionManagerMarksRecordsApplied() {
		this.withDataSource
			.withConfiguration(AutoConfigurations.of(DataSourceTransactionManagerAutoConfiguration.class,
					TransactionManagerCustomizationAutoConfiguration.class))
			.withPropertyValues("modelgate.idempotency.store=jdbc")
			.run((context) -> assertThat(
					context.getBean(DataSourceTransactionManager.class).getTransactionExecutionListeners())
				.containsExactly(context.getBean(MarkAppliedTransactionListener.class)));
	}

	@Test
	void storeWritesRelaxTheirCommitUnlessSynchronousCommitIsAskedFor() {
		String table = uniqueTableName();
		for (boolean synchronous : List.of(false, true)) {
			RecordingDataSource recording = new RecordingDataSource(PostgresTestServer.dataSource());
			this.contextRunner.withBean(DataSource.class, () -> recording)
				.withPropertyValues("modelgate.idempotency.store=jdbc", "modelgate.idempotency.jdbc.table-name=" + table,
						"modelgate.idempotency.jdbc.initialize-schema=always",
						"modelgate.idempotency.jdbc.synchronous-commit=" + synchronous)
				.run((context) -> {
					recording.statements.clear();
					context.getBean(JdbcIdempotencyStore.class)
						.begin(UUID.randomUUID().toString(), "fp", UUID.randomUUID().toString(), Duration.ofSeconds(5));
					assertThat(recording.statements).as("synchronous-commit=%s", synchronous)
						.hasSize(1)
						.allMatch((sql) -> sql.contains("synchronous_commit") != synchronous);
				});
		}
		dropTable(table);
	}

	@Test
	void onMariaDbTheStoreRunsTheMariaDbStatementsOnTheTableItsScriptCreated() {
		String table = uniqueTableName();
		RecordingDataSource recording = new RecordingDataSource(MariaDbTestServer.dataSource());
		this.contextRunner.withBean(DataSource.class, () -> recording)
			.withPropertyValues("modelgate.idempotency.store=jdbc", "modelgate.idempotency.jdbc.table-name=" + table,
					"modelgate.idempotency.jdbc.initialize-schema=always")
			.run((context) -> {
				assertThat(context).hasSingleBean(JdbcIdempotencyStore.class)
					.hasSingleBean(JdbcIdempotencyPurger.class)
					.hasSingleBean(MarkAppliedTransactionListener.class);
				assertThat(MariaDbTestServer.jdbcTemplate()
					.queryForList("SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() "
							+ "AND table_name LIKE ?", String.class, table + "%"))
					.containsExactlyInAnyOrder(table, table + "_events");
				recording.statements.clear();
				JdbcIdempotencyStore store = context.getBean(JdbcIdempotencyStore.class);
				String scope = UUID.randomUUID().toString().replace("-", "");
				assertThat(store.begin(scope, "fp", UUID.randomUUID().toString(), Duration.ofSeconds(5)).outcome())
					.isEqualTo(BeginResult.Outcome.ACQUIRED);
				assertThat(store.begin(scope, "fp", UUID.randomUUID().toString(), Duration.ofSeconds(5)).outcome())
					.isEqualTo(BeginResult.Outcome.IN_PROGRESS);
				assertThat(recording.statements).isNotEmpty().allMatch((sql) -> sql.contains("UTC_TIMESTAMP(6)"));
			});
		MariaDbTestServer.jdbcTemplate().execute("DROP TABLE IF EXISTS " + table + "_events, " + table);
	}

	@Test
	void onMariaDbInitializeSchemaNeverLeavesTheDatabaseAloneAndAMissingTableFailsStartUpNamingTheDdl() {
		String table = uniqueTableName();
		this.contextRunner.withBean(DataSource.class, MariaDbTestServer::dataSource)
			.withPropertyValues("modelgate.idempotency.store=jdbc", "modelgate.idempotency.jdbc.table-name=" + table,
					"modelgate.idempotency.jdbc.initialize-schema=never")
			.run((context) -> {
				assertMissingTable(context, table, "META-INF/modelgate/schema/mariadb.sql");
				assertThat(MariaDbTestServer.jdbcTemplate()
					.queryForObject("SELECT count(*) FROM information_schema.tables WHERE table_schema = DATABASE() "
							+ "AND table_name = ?", Integer.class, table))
					.isZero();
			});
	}

	private static String uniqueTableName() {
		return "modelgate_idempotency_config_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
	}

	private static void dropTable(String table) {
		PostgresTestServer.jdbcTemplate().execute("DROP TABLE IF EXISTS " + table + "_events, " + table);
	}

	@Test
	void aHikariPoolThatBoundsItsCheckoutWithinOperationTimeoutLetsTheStoreBeCalledOnTheRequestThread() {
		try (HikariDataSource pool = hikari(250, 250)) {
			this.contextRunner.withBean(DataSource.class, () -> pool)
				.run((context) -> assertThat(context.getBean(IdempotencyStore.class).callTimeLimit())
					.isEqualTo(Duration.ofSeconds(2)));
			this.contextRunner.withBean(DataSource.class, () -> pool)
				.withPropertyValues("modelgate.idempotency.operation-timeout=4s")
				.run((context) -> assertThat(context.getBean(IdempotencyStore.class).callTimeLimit())
					.isEqualTo(Duration.ofSeconds(4)));
		}
	}

	@Test
	void onMariaDbACallCanBeThreeStatementsSoTheCheckoutMustLeaveAThirdOfTheOperationTimeout() {
		try (HikariDataSource pool = hikari(MariaDbTestServer.hikari(), 250, 250)) {
			// 2s / 3 leaves 166 ms after the checkout: less than a statement's 250 ms floor.
			this.contextRunner.withBean(DataSource.class, () -> pool)
				.run((context) -> assertThat(context.getBean(IdempotencyStore.class).callTimeLimit()).isNull());
			this.contextRunner.withBean(DataSource.class, () -> pool)
				.withPropertyValues("modelgate.idempotency.operation-timeout=3s")
				.run((context) -> assertThat(context.getBean(IdempotencyStore.class).callTimeLimit())
					.isEqualTo(Duration.ofSeconds(3)));
		}
	}

	@Test
	void aPoolThatMayWaitLongerForAConnectionOrAnotherDataSourceLeavesTheCallsToBeHandedOff() {
		// HikariCP's default checkout timeout, 30s, is longer than any operation-timeout here.
		try (HikariDataSource pool = hikari(30_000, 5_000)) {
			this.contextRunner.withBean(DataSource.class, () -> pool)
				.run((context) -> assertThat(context.getBean(IdempotencyStore.class).callTimeLimit()).isNull());
		}
		// Each statement would get less than 250 ms of half the operation timeout.
		try (HikariDataSource pool = hikari(500, 500)) {
			this.contextRunner.withBean(DataSource.class, () -> pool)
				.run((context) -> assertThat(context.getBean(IdempotencyStore.class).callTimeLimit()).isNull());
		}
		// A wrapper could add waits of its own.
		this.withDataSource
			.run((context) -> assertThat(context.getBean(IdempotencyStore.class).callTimeLimit()).isNull());
	}

	@Test
	void aPoolThatCouldNotStartBecauseTheDatabaseWasDownLeavesTheCallsToBeHandedOff() {
		HikariDataSource pool = new HikariDataSource();
		pool.setJdbcUrl("jdbc:postgresql://127.0.0.1:1/test");
		pool.setUsername("postgres");
		pool.setConnectionTimeout(250);
		pool.setValidationTimeout(250);
		try (pool) {
			// Until it starts, each checkout would try to start it, connecting on the caller's thread.
			this.contextRunner.withBean(DataSource.class, () -> pool)
				.withPropertyValues("modelgate.idempotency.store=jdbc")
				.run((context) -> assertThat(context.getBean(IdempotencyStore.class).callTimeLimit()).isNull());
		}
	}

	private static HikariDataSource hikari(long connectionTimeout, long validationTimeout) {
		return hikari(PostgresTestServer.hikari(), connectionTimeout, validationTimeout);
	}

	private static HikariDataSource hikari(HikariDataSource shared, long connectionTimeout, long validationTimeout) {
		HikariDataSource pool = new HikariDataSource();
		pool.setJdbcUrl(shared.getJdbcUrl());
		pool.setUsername(shared.getUsername());
		pool.setPassword(shared.getPassword());
		pool.setMaximumPoolSize(2);
		pool.setConnectionTimeout(connectionTimeout);
		pool.setValidationTimeout(validationTimeout);
		return pool;
	}

	/** Records the SQL of every statement prepared on its connections. */
	static class RecordingDataSource extends DelegatingDataSource {

		final List<String> statements = new CopyOnWriteArrayList<>();

		RecordingDataSource(DataSource target) {
			super(target);
		}

		@Override
		public Connection getConnection() throws SQLException {
			Connection connection = super.getConnection();
			return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { Connection.class },
					(proxy, method, args) -> {
						if (method.getName().equals("prepareStatement")) {
							this.statements.add((String) args[0]);
						}
						try {
							return method.invoke(connection, args);
						}
						catch (InvocationTargetException ex) {
							throw ex.getTargetException();
						}
					});
		}

	}

}
