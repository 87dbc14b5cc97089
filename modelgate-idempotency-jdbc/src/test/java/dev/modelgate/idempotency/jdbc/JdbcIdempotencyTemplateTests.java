package dev.modelgate.idempotency.jdbc;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.test.IdempotencyTemplateContractTests;
import dev.modelgate.idempotency.testsupport.PostgresTestServer;

/** The template contract on a real PostgreSQL. */
@Tag("store")
class JdbcIdempotencyTemplateTests extends IdempotencyTemplateContractTests {

	private static final String TABLE = "modelgate_idempotency_template_test";

	@BeforeAll
	static void createTable() {
		PostgresTestServer.recreateTable(TABLE, JdbcIdempotencySchema.script(TABLE));
	}

	@Override
	protected IdempotencyStore createStore() {
		return new JdbcIdempotencyStore(PostgresTestServer.jdbcTemplate(), TABLE);
	}

}
