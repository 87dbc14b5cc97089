package dev.modelgate.idempotency.ai;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencySchema;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencyStore;
import dev.modelgate.idempotency.testsupport.PostgresTestServer;

/** Streamed model rounds on real PostgreSQL ({@code PGHOST}, {@code PGPORT}, ...), in a table of their own. */
@Tag("store")
class PostgresStreamedModelRoundsTests extends AbstractStreamedModelRoundsTests {

	private static final String TABLE = "modelgate_idempotency_ai_stream";

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
