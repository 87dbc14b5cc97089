package dev.modelgate.idempotency.jdbc;

import org.junit.jupiter.api.Tag;

/** {@link JdbcTemplateTransactionalCompletionTests} on MariaDB: The template's work and the applied mark in one transaction. */
@Tag("store")
class MariaDbTemplateTransactionalCompletionTests extends JdbcTemplateTransactionalCompletionTests {

	@Override
	TestDatabase database() {
		return TestDatabase.MARIADB;
	}

}
