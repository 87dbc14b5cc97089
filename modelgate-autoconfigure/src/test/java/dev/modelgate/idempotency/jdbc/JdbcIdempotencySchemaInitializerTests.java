package dev.modelgate.idempotency.jdbc;

import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.testsupport.PostgresTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The schema script creates a working table under the configured name, and only when asked to.
 */
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
		assertThat(PostgresTestServer.tableExists(SCHEMA + ".idempotency_records_expires_at_idx")).isTrue();
		JdbcIdempotencyStore store = new JdbcIdempotencyStore(this.jdbcTemplate, TABLE);
		assertThat(store.begin("scope", "fp", "token", Duration.ofMinutes(1)).outcome()).isEqualTo(Outcome.ACQUIRED);
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
