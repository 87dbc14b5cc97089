package dev.modelgate.idempotency.jdbc;

import org.junit.jupiter.api.Tag;

/** {@link JdbcTransactionalCompletionTests} on MariaDB: The applied mark inside the business transaction; a stale holder's transaction rolls back. */
@Tag("store")
class MariaDbTransactionalCompletionTests extends JdbcTransactionalCompletionTests {

	@Override
	TestDatabase database() {
		return TestDatabase.MARIADB;
	}

}
