package dev.modelgate.idempotency.jdbc;

import org.junit.jupiter.api.Tag;

/** {@link JdbcIdempotencyTemplateTests} on MariaDB: The template contract. */
@Tag("store")
class MariaDbIdempotencyTemplateTests extends JdbcIdempotencyTemplateTests {

	@Override
	TestDatabase database() {
		return TestDatabase.MARIADB;
	}

}
