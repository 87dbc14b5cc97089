package dev.modelgate.idempotency.jdbc;

import org.junit.jupiter.api.Tag;

/** {@link JdbcIdempotencyStoreTests} on MariaDB through MySQL Connector/J, a MySQL application's driver: The store contract, and what the JDBC store promises beyond it. */
@Tag("store")
class MySqlConnectorIdempotencyStoreTests extends JdbcIdempotencyStoreTests {

	@Override
	TestDatabase database() {
		return TestDatabase.MARIADB_THROUGH_MYSQL_CONNECTOR;
	}

}
