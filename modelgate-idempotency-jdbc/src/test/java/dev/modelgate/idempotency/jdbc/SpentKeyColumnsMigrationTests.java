package dev.modelgate.idempotency.jdbc;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A table created before spent keys existed (no spent_* or completed_at columns) gets them when the
 * schema is created again, as {@code jdbc.initialize-schema} does at start-up: by the script's
 * {@code ADD COLUMN IF NOT EXISTS} on PostgreSQL, by {@link JdbcIdempotencySchema} on MariaDB and
 * MySQL; the store then keeps spent keys in it.
 */
@Tag("store")
class SpentKeyColumnsMigrationTests {

	@ParameterizedTest
	@EnumSource(value = TestDatabase.class, names = { "POSTGRESQL", "MARIADB" })
	void aTableFromBeforeSpentKeysGetsTheirColumns(TestDatabase database) {
		String table = "modelgate_spent_migration_test";
		JdbcTemplate jdbc = database.jdbcTemplate();
		jdbc.execute("DROP TABLE IF EXISTS " + table + "_events, " + table);
		JdbcIdempotencySchema.create(database.dataSource(), database.database(), table);
		jdbc.execute("ALTER TABLE " + table + " DROP COLUMN spent_at, DROP COLUMN spent_status, "
				+ "DROP COLUMN spent_resource, DROP COLUMN completed_at");

		JdbcIdempotencySchema.create(database.dataSource(), database.database(), table);
		JdbcIdempotencySchema.create(database.dataSource(), database.database(), table);

		JdbcIdempotencyStore store = database.store(jdbc, table);
		String scope = (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "");
		store.begin(scope, "fp", "token", Duration.ofSeconds(30));
		store.complete(scope, "token", StoredOutcome.empty(StoredOutcome.Kind.NULL), Duration.ofMillis(100),
				new SpentMarker(Duration.ofMinutes(5), "201", "/orders/1"));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> store.begin(scope, "fp", "other", Duration.ofSeconds(30)).outcome() == Outcome.SPENT);
		jdbc.execute("DROP TABLE IF EXISTS " + table + "_events, " + table);
	}

}
