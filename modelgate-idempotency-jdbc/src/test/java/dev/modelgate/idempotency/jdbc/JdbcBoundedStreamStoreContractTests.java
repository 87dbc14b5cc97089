package dev.modelgate.idempotency.jdbc;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.test.StreamStoreContractTests;
import dev.modelgate.idempotency.testsupport.PostgresTestServer;

/** The stream contract on a store whose calls are bounded, as {@link JdbcBoundedStoreContractTests}. */
@Tag("store")
class JdbcBoundedStreamStoreContractTests extends StreamStoreContractTests {

	private static final String TABLE = "modelgate_idempotency_bounded_stream_test";

	@BeforeAll
	static void createTables() {
		PostgresTestServer.recreateTable(TABLE, JdbcIdempotencySchema.script(TABLE));
	}

	@Override
	protected IdempotencyStore createStore() {
		return JdbcBoundedStoreContractTests.boundedStore(TABLE);
	}

}
