package dev.modelgate.idempotency.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencyStore;
import dev.modelgate.idempotency.testsupport.PostgresTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The schema script creates a working table under the configured name, and only when asked to.
 */
@Tag("store")
class JdbcIdempotencySchemaInitializerTests {

	private static final String SCHEMA = "modelgate_init_test";

	private static final String TABLE = SCHEMA + ".idempotency_records";

	private final JdbcTemplate jdbcTemplate = PostgresTestServer.jdbcTemplate();

	@BeforeEach
	void freshSchema() {
		this.jdbcTemplate.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
		this.jdbcTemplate.execute("CREATE SCHEMA " + SCHEMA);
	}

	@Test
	void alwaysCreatesTheTableUnderASchemaQualifiedNameAndToleratesRerunning() {
		assertThat(initializer(DatabaseInitializationMode.ALWAYS).initializeDatabase()).isTrue();
		assertThat(initializer(DatabaseInitializationMode.ALWAYS).initializeDatabase()).isTrue();

		assertThat(PostgresTestServer.tableExists(TABLE)).isTrue();
		assertThat(PostgresTestServer.tableExists(TABLE + "_events")).isTrue();
		assertThat(PostgresTestServer.tableExists(SCHEMA + ".idempotency_records_expires_at_idx")).isTrue();
		JdbcIdempotencyStore store = new JdbcIdempotencyStore(this.jdbcTemplate, TABLE);
		assertThat(store.begin("scope", "fp", "token", Duration.ofMinutes(1)).outcome()).isEqualTo(Outcome.ACQUIRED);
	}

	/**
	 * Instances that start together on a fresh database: without turns, PostgreSQL let two concurrent
	 * CREATE TABLE IF NOT EXISTS both try to create, and the loser failed start-up on a catalog unique
	 * index (found by the reliability suite, two gateways starting at once).
	 */
	@Test
	void instancesStartingTogetherAllCreateOrFindTheTable() throws Exception {
		int instances = 8;
		ExecutorService pool = Executors.newFixedThreadPool(instances);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<Boolean>> results = new ArrayList<>();
		for (int i = 0; i < instances; i++) {
			results.add(pool.submit(() -> {
				start.await();
				return initializer(DatabaseInitializationMode.ALWAYS).initializeDatabase();
			}));
		}
		start.countDown();
		try {
			for (Future<Boolean> result : results) {
				assertThat(result.get(60, TimeUnit.SECONDS)).isTrue();
			}
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(PostgresTestServer.tableExists(TABLE)).isTrue();
	}

	@Test
	void neverAndEmbeddedLeaveAServerDatabaseAlone() {
		assertThat(initializer(DatabaseInitializationMode.NEVER).initializeDatabase()).isFalse();
		assertThat(initializer(DatabaseInitializationMode.EMBEDDED).initializeDatabase()).isFalse();
		assertThat(PostgresTestServer.tableExists(TABLE)).isFalse();
	}

	@Test
	void refusesATableNameThatIsNotAnIdentifier() {
		assertThatIllegalArgumentException().isThrownBy(() -> new JdbcIdempotencySchemaInitializer(
				PostgresTestServer.dataSource(), "t (x int); DROP TABLE users; --", DatabaseInitializationMode.ALWAYS));
	}

	private JdbcIdempotencySchemaInitializer initializer(DatabaseInitializationMode mode) {
		return new JdbcIdempotencySchemaInitializer(PostgresTestServer.dataSource(), TABLE, mode);
	}

}
