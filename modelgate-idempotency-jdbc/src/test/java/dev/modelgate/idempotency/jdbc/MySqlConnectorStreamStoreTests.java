package dev.modelgate.idempotency.jdbc;

import org.junit.jupiter.api.Tag;

/** {@link JdbcStreamStoreTests} on MariaDB through MySQL Connector/J, a MySQL application's driver: The stream contract. */
@Tag("store")
class MySqlConnectorStreamStoreTests extends JdbcStreamStoreTests {

	@Override
	TestDatabase database() {
		return TestDatabase.MARIADB_THROUGH_MYSQL_CONNECTOR;
	}

}
