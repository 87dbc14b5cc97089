package dev.modelgate.idempotency.jdbc;

import org.junit.jupiter.api.Tag;

/** {@link JdbcBoundedStreamStoreContractTests} on MariaDB: The stream contract on a store whose calls are bounded. */
@Tag("store")
class MariaDbBoundedStreamStoreContractTests extends JdbcBoundedStreamStoreContractTests {

	@Override
	TestDatabase database() {
		return TestDatabase.MARIADB;
	}

}
