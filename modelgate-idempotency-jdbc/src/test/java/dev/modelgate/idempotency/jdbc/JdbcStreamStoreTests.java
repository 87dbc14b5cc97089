package dev.modelgate.idempotency.jdbc;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.test.StreamStoreContractTests;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stream contract on a real PostgreSQL, and that a record's events leave the events table with it.
 */
@Tag("store")
class JdbcStreamStoreTests extends StreamStoreContractTests {

	private static final String TABLE = "modelgate_idempotency_stream_test";

	private final JdbcTemplate jdbcTemplate = database().jdbcTemplate();

	@Override
	protected IdempotencyStore createStore() {
		database().createOnce(TABLE);
		return database().store(this.jdbcTemplate, TABLE);
	}

	/** {@return the server this class runs on; its MariaDB subclass says MariaDB} */
	TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

	@Test
	void releaseDeleteAndPurgeTakeTheRecordsEventsAlong() {
		JdbcIdempotencyStore store = (JdbcIdempotencyStore) createStore();
		String released = streamWithOneEvent(store, Duration.ofMinutes(5));
		String deleted = streamWithOneEvent(store, Duration.ofMinutes(5));
		String expired = streamWithOneEvent(store, Duration.ofMillis(200));
		store.release(released, token(released));
		store.delete(deleted);
		DatabaseDeadlines.awaitExpired(database(), TABLE, expired);
		store.purgeExpired(100);
		for (String scope : List.of(released, deleted, expired)) {
			assertThat(this.jdbcTemplate.queryForObject("SELECT count(*) FROM " + TABLE + "_events WHERE scope = ?",
					Long.class, scope)).isZero();
		}
	}

	private static String streamWithOneEvent(JdbcIdempotencyStore store, Duration lease) {
		String scope = (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "");
		store.begin(scope, "fp", token(scope), lease);
		store.openStream(scope, token(scope), new byte[] { 1 });
		assertThat(store.appendEvents(scope, token(scope), 1, List.of(new byte[] { 2 }))).isTrue();
		return scope;
	}

	/** One token per scope, so that the test can act as the holder without keeping it. */
	private static String token(String scope) {
		return scope.substring(0, 32);
	}

}
