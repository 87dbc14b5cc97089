package dev.modelgate.idempotency.jdbc;

import org.junit.jupiter.api.Tag;

/** {@link JdbcIdempotencyStoreTests} on MariaDB: The store contract, and what the JDBC store promises beyond it. */
@Tag("store")
class MariaDbIdempotencyStoreTests extends JdbcIdempotencyStoreTests {

	@Override
	TestDatabase database() {
		return TestDatabase.MARIADB;
	}

}
