package dev.modelgate.idempotency.jdbc;

import org.junit.jupiter.api.Tag;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.test.StreamStoreContractTests;

/** The stream contract on a store whose calls are bounded, as {@link JdbcBoundedStoreContractTests}. */
@Tag("store")
class JdbcBoundedStreamStoreContractTests extends StreamStoreContractTests {

	private static final String TABLE = "modelgate_idempotency_bounded_stream_test";

	@Override
	protected IdempotencyStore createStore() {
		return JdbcBoundedStoreContractTests.boundedStore(database(), TABLE);
	}

	/** {@return the server this class runs on; its MariaDB subclass says MariaDB} */
	TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

}
