package dev.modelgate.idempotency.jdbc;

import org.junit.jupiter.api.Tag;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.test.IdempotencyTemplateContractTests;

/** The template contract on a real PostgreSQL. */
@Tag("store")
class JdbcIdempotencyTemplateTests extends IdempotencyTemplateContractTests {

	private static final String TABLE = "modelgate_idempotency_template_test";

	@Override
	protected IdempotencyStore createStore() {
		database().createOnce(TABLE);
		return database().store(database().jdbcTemplate(), TABLE);
	}

	/** {@return the server this class runs on; its MariaDB subclass says MariaDB} */
	TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

}
