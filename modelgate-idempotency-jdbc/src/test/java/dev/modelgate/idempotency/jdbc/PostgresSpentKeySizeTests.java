package dev.modelgate.idempotency.jdbc;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * How many bytes of PostgreSQL a spent key takes once the purge dropped its answer: the row
 * ({@code pg_column_size}) and the table with its indexes per row after {@code VACUUM FULL}, the
 * figures docs/STORES.md gives for a million spent keys. It fails when a marker grows past the
 * documented bound.
 */
@Tag("store")
class PostgresSpentKeySizeTests {

	private static final String TABLE = "modelgate_spent_size_test";

	private static final int KEYS = 2000;

	@Test
	void aSpentKeysRowTakesAboutTwoHundredBytes() {
		TestDatabase database = TestDatabase.POSTGRESQL;
		JdbcTemplate jdbc = database.jdbcTemplate();
		database.createOnce(TABLE);
		JdbcIdempotencyStore store = database.store(jdbc, TABLE);
		StoredOutcome answer = new StoredOutcome(StoredOutcome.Kind.RESPONSE, new byte[1024]);
		for (int i = 0; i < KEYS; i++) {
			String scope = (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "");
			String token = UUID.randomUUID().toString().replace("-", "");
			store.begin(scope, scope, token, Duration.ofSeconds(30));
			store.complete(scope, token, answer, Duration.ofMillis(300),
					new SpentMarker(Duration.ofDays(7), "201", "/orders/" + (1_000_000 + i)));
		}
		long answered = jdbc.queryForObject("SELECT avg(pg_column_size(t.*))::bigint FROM " + TABLE + " t", Long.class);
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> {
				store.purgeExpired(1000);
				return jdbc.queryForObject("SELECT count(*) FROM " + TABLE + " WHERE outcome IS NOT NULL",
						Long.class) == 0;
			});
		long row = jdbc.queryForObject("SELECT avg(pg_column_size(t.*))::bigint FROM " + TABLE + " t", Long.class);
		jdbc.execute("VACUUM FULL " + TABLE);
		long total = jdbc.queryForObject("SELECT pg_total_relation_size('" + TABLE + "') / count(*) FROM " + TABLE,
				Long.class);
		long table = jdbc.queryForObject("SELECT pg_relation_size('" + TABLE + "') / count(*) FROM " + TABLE,
				Long.class);
		System.out.printf("PostgreSQL per spent key: row %d bytes with its 1 KiB answer, %d bytes once spent; "
				+ "%d bytes of table pages and %d bytes with its indexes%n", answered, row, table, total);
		assertThat(answered).isGreaterThan(1024);
		assertThat(row).isBetween(100L, 300L);
		assertThat(total).isLessThan(600L);
	}

}
