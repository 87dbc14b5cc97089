package dev.modelgate.idempotency.jdbc;

import org.junit.jupiter.api.Tag;

/** {@link JdbcBoundedCallsTests} on MariaDB: A store built with a call limit (network timeout through MariaDB Connector/J, checkout through HikariCP). */
@Tag("store")
class MariaDbBoundedCallsTests extends JdbcBoundedCallsTests {

	@Override
	TestDatabase database() {
		return TestDatabase.MARIADB;
	}

}
