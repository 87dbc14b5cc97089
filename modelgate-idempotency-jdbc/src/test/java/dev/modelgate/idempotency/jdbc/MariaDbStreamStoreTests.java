package dev.modelgate.idempotency.jdbc;

import org.junit.jupiter.api.Tag;

/** {@link JdbcStreamStoreTests} on MariaDB: The stream contract, and that a record's events leave with it. */
@Tag("store")
class MariaDbStreamStoreTests extends JdbcStreamStoreTests {

	@Override
	TestDatabase database() {
		return TestDatabase.MARIADB;
	}

}
