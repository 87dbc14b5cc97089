package dev.modelgate.idempotency.jdbc;

import java.time.Duration;

import org.junit.jupiter.api.Tag;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.test.IdempotencyStoreContractTests;

/**
 * The store contract on a store whose calls are bounded (a {@link JdbcIdempotencyStore.CallLimit},
 * as auto-configured on a HikariCP pool with a short checkout timeout): every statement with its
 * network timeout, on a connection of its own, large writes from the store's own thread.
 */
@Tag("store")
class JdbcBoundedStoreContractTests extends IdempotencyStoreContractTests {

	// The contract is about answers, not time: limits a loaded CI machine's PostgreSQL always meets (a
	// renew once took over 500 ms there and failed the test). JdbcBoundedCallsTests tests the limits.
	private static final JdbcIdempotencyStore.CallLimit LIMIT = new JdbcIdempotencyStore.CallLimit(Duration.ofSeconds(5),
			Duration.ofSeconds(5));

	private static final String TABLE = "modelgate_idempotency_bounded_contract_test";

	@Override
	protected IdempotencyStore createStore() {
		return boundedStore(database(), TABLE);
	}

	/** {@return the server this class runs on; its MariaDB subclass says MariaDB} */
	TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

	/** A store on {@code table}, created if this run has not yet, with {@link #LIMIT}, on the test server's HikariCP pool. */
	static JdbcIdempotencyStore boundedStore(TestDatabase database, String table) {
		database.createOnce(table);
		return database.store(new JdbcTemplate(database.hikari()), table, JdbcIdempotencyStore.DEFAULT_APPLIED_RETENTION,
				LIMIT);
	}

}
