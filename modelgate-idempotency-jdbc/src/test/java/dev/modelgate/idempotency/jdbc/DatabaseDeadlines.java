package dev.modelgate.idempotency.jdbc;

import java.time.Duration;

import org.springframework.jdbc.core.JdbcTemplate;


import static org.awaitility.Awaitility.await;

/**
 * Waits until a record's deadline has passed on the database's clock, the one the store judges
 * deadlines by ({@link TestDatabase#now()}): a test goes on as soon as the lease is over, never
 * before, however slow the machine. The checks use a connection of their own, so that they neither
 * count in a test's statement counts nor join its transaction.
 */
final class DatabaseDeadlines {

	private static final Duration PATIENCE = Duration.ofSeconds(10);

	private DatabaseDeadlines() {
	}

	/** Until the lease of the record under {@code scope} has run out. */
	static void awaitLeaseExpired(TestDatabase database, String table, String scope) {
		awaitTrue(database, "the lease of " + scope + " in " + table + " ran out",
				"SELECT lease_expires_at <= " + database.now() + " FROM " + table + " WHERE scope = ?", scope);
	}

	/** Until the record under {@code scope} has expired. */
	static void awaitExpired(TestDatabase database, String table, String scope) {
		awaitTrue(database, scope + " in " + table + " expired",
				"SELECT expires_at <= " + database.now() + " FROM " + table + " WHERE scope = ?", scope);
	}

	/** Until every lease in the table has run out (and there is at least one record). */
	static void awaitEveryLeaseExpired(TestDatabase database, String table) {
		awaitTrue(database, "every lease in " + table + " ran out",
				"SELECT count(*) > 0 AND count(*) = count(CASE WHEN lease_expires_at <= " + database.now()
						+ " THEN 1 END) FROM " + table + " WHERE lease_expires_at IS NOT NULL");
	}

	private static void awaitTrue(TestDatabase database, String description, String sql, Object... arguments) {
		JdbcTemplate jdbcTemplate = database.jdbcTemplate();
		await(description).atMost(PATIENCE)
			.pollInterval(Duration.ofMillis(20))
			.until(() -> jdbcTemplate.queryForObject(sql, Boolean.class, arguments));
	}

}
