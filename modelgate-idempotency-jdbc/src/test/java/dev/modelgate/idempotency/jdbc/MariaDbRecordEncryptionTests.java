package dev.modelgate.idempotency.jdbc;

import org.junit.jupiter.api.Tag;

/** {@link JdbcRecordEncryptionTests} on MariaDB: no plaintext in its rows, tampering refused. */
@Tag("store")
class MariaDbRecordEncryptionTests extends JdbcRecordEncryptionTests {

	@Override
	TestDatabase database() {
		return TestDatabase.MARIADB;
	}

}
