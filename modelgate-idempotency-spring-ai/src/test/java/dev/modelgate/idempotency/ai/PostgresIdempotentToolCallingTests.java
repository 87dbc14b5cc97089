package dev.modelgate.idempotency.ai;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencySchema;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencyStore;
import dev.modelgate.idempotency.testsupport.PostgresTestServer;

/** The agent on real PostgreSQL ({@code PGHOST}, {@code PGPORT}, ...), in a table of its own. */
@Tag("store")
class PostgresIdempotentToolCallingTests extends AbstractIdempotentToolCallingTests {

	private static final String TABLE = "modelgate_idempotency_spring_ai";

	private final IdempotencyStore store = new JdbcIdempotencyStore(PostgresTestServer.jdbcTemplate(), TABLE);

	@BeforeAll
	static void createTable() {
		PostgresTestServer.recreateTable(TABLE, JdbcIdempotencySchema.script(TABLE));
	}

	@Override
	protected IdempotencyStore store() {
		return this.store;
	}

}
