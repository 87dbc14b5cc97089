package dev.modelgate.idempotency.jdbc;

import org.junit.jupiter.api.Tag;

/** {@link JdbcTransactionalCompletionTests} on MariaDB through MySQL Connector/J, a MySQL application's driver: Completion inside the business transaction. */
@Tag("store")
class MySqlConnectorTransactionalCompletionTests extends JdbcTransactionalCompletionTests {

	@Override
	TestDatabase database() {
		return TestDatabase.MARIADB_THROUGH_MYSQL_CONNECTOR;
	}

}
