package dev.modelgate.idempotency.jdbc;

import org.junit.jupiter.api.Tag;

/** {@link JdbcIdempotencyPurgeTests} on MariaDB: Expired records are deleted in batches (locked with SKIP LOCKED), and only expired ones. */
@Tag("store")
class MariaDbIdempotencyPurgeTests extends JdbcIdempotencyPurgeTests {

	@Override
	TestDatabase database() {
		return TestDatabase.MARIADB;
	}

}
