package dev.modelgate.sample;

import java.sql.Connection;
import java.sql.SQLException;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ScriptUtils;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

/**
 * The mariadb profile on the real MariaDB server (MARIADB_HOST/MARIADB_PORT/MARIADB_DATABASE/MARIADB_USER,
 * default 127.0.0.1:3306/test/root): the tests of the postgres profile, idempotency records and credit
 * balances in one MariaDB database, so that a retried completion is never charged twice.
 */
@ActiveProfiles(profiles = "mariadb", inheritProfiles = false)
@TestPropertySource(properties = "modelgate.idempotency.jdbc.table-name=modelgate_idempotency_sample_test")
class MariaDbBillingTests extends PostgresBillingTests {

	@Override
	String schemaKind() {
		return "DATABASE";
	}

	@Override
	String dropOptions() {
		return "";
	}

	@Override
	void runBillingScriptIn(Connection connection, String database) throws SQLException {
		// The pool hands the connection out again: its database must be the shared one, not this one.
		String own = connection.getCatalog();
		connection.setCatalog(database);
		try {
			ScriptUtils.executeSqlScript(connection, new ClassPathResource("billing/schema-mariadb.sql"));
		}
		finally {
			connection.setCatalog(own);
		}
	}

}
