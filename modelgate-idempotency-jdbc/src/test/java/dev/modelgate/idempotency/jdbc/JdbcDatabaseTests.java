package dev.modelgate.idempotency.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.modelgate.idempotency.testsupport.MariaDbTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/** Which statements a driver's product name and version choose. */
class JdbcDatabaseTests {

	@Test
	void namesTheDatabaseTheDriverReports() {
		assertThat(JdbcDatabase.of("PostgreSQL", "16.4")).contains(JdbcDatabase.POSTGRESQL);
		assertThat(JdbcDatabase.of("MariaDB", "10.11.19-MariaDB-0+deb12u1")).contains(JdbcDatabase.MARIADB);
		assertThat(JdbcDatabase.of("MySQL", "8.0.36")).contains(JdbcDatabase.MYSQL);
	}

	@Test
	void mySqlConnectorOnAMariaDbServerIsMariaDb() {
		assertThat(JdbcDatabase.of("MySQL", "5.5.5-10.11.19-MariaDB-0+deb12u1")).contains(JdbcDatabase.MARIADB);
	}

	@Test
	@Tag("store")
	void whatMySqlConnectorReportsOfTheLocalMariaDbServerIsMariaDb() throws SQLException {
		try (Connection connection = MariaDbTestServer.dataSourceThroughMySqlConnector().getConnection()) {
			DatabaseMetaData metadata = connection.getMetaData();
			assertThat(metadata.getDriverName()).contains("MySQL Connector");
			assertThat(JdbcDatabase.of(metadata.getDatabaseProductName(), metadata.getDatabaseProductVersion()))
				.contains(JdbcDatabase.MARIADB);
		}
	}

	@Test
	void anyOtherDatabaseHasNoStatements() {
		assertThat(JdbcDatabase.of("H2", "2.3.232")).isEmpty();
		assertThat(JdbcDatabase.of("Microsoft SQL Server", "16.0")).isEmpty();
		assertThat(JdbcDatabase.of(null, null)).isEmpty();
	}

	@Test
	void mariaDbAndMySqlShareTheirStatementsAndSchema() {
		assertThat(JdbcDatabase.MYSQL.statements("t", false)).isInstanceOf(MariaDbStatements.class);
		assertThat(JdbcDatabase.MARIADB.statements("t", false)).isInstanceOf(MariaDbStatements.class);
		assertThat(JdbcDatabase.MYSQL.schemaLocation()).isEqualTo(JdbcIdempotencySchema.MARIADB);
		assertThat(JdbcDatabase.POSTGRESQL.statements("t", true)).isInstanceOf(PostgresStatements.class);
	}

}
