package dev.modelgate.idempotency.jdbc;

import java.time.Duration;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.idempotency.testsupport.PostgresTestServer;

import static org.awaitility.Awaitility.await;

/**
 * Waits until a record's deadline has passed on the database's clock, the one the store judges
 * deadlines by ({@code statement_timestamp()}): a test goes on as soon as the lease is over, never
 * before, however slow the machine. The checks use a connection of their own, so that they neither
 * count in a test's statement counts nor join its transaction.
 */
final class DatabaseDeadlines {

	private static final Duration PATIENCE = Duration.ofSeconds(10);

	private DatabaseDeadlines() {
	}

	/** Until the lease of the record under {@code scope} has run out. */
	static void awaitLeaseExpired(String table, String scope) {
		awaitTrue("the lease of " + scope + " in " + table + " ran out",
				"SELECT lease_expires_at <= statement_timestamp() FROM " + table + " WHERE scope = ?", scope);
	}

	/** Until the record under {@code scope} has expired. */
	static void awaitExpired(String table, String scope) {
		awaitTrue(scope + " in " + table + " expired",
				"SELECT expires_at <= statement_timestamp() FROM " + table + " WHERE scope = ?", scope);
	}

	/** Until every lease in the table has run out (and there is at least one record). */
	static void awaitEveryLeaseExpired(String table) {
		awaitTrue("every lease in " + table + " ran out",
				"SELECT coalesce(bool_and(lease_expires_at <= statement_timestamp()), false) FROM " + table
						+ " WHERE lease_expires_at IS NOT NULL");
	}

	private static void awaitTrue(String description, String sql, Object... arguments) {
		JdbcTemplate jdbcTemplate = PostgresTestServer.jdbcTemplate();
		await(description).atMost(PATIENCE)
			.pollInterval(Duration.ofMillis(20))
			.until(() -> jdbcTemplate.queryForObject(sql, Boolean.class, arguments));
	}

}
