package dev.modelgate.idempotency.jdbc;

import org.junit.jupiter.api.Tag;

/** {@link JdbcBoundedStoreContractTests} on MariaDB: The store contract on a store whose calls are bounded. */
@Tag("store")
class MariaDbBoundedStoreContractTests extends JdbcBoundedStoreContractTests {

	@Override
	TestDatabase database() {
		return TestDatabase.MARIADB;
	}

}
