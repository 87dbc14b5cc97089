package dev.modelgate.idempotency.testsupport;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The MariaDB server the JDBC tests run on: the one at {@code MARIADB_HOST:MARIADB_PORT} (default
 * 127.0.0.1:3306, database {@code MARIADB_DATABASE}, default {@code test}, user {@code MARIADB_USER},
 * default {@code root}, password {@code MARIADB_PASSWORD}, default empty), through MariaDB
 * Connector/J. Without it the tests fail and say how to start it; they are never skipped.
 */
public final class MariaDbTestServer {

	private static final TestPool POOL = new TestPool(() -> poolConfig("modelgate-mariadb-test", url()));

	private static final TestPool MYSQL_CONNECTOR_POOL = new TestPool(
			() -> poolConfig("modelgate-mariadb-mysql-connector-test", url().replace("jdbc:mariadb:", "jdbc:mysql:")));

	private MariaDbTestServer() {
	}

	/**
	 * A pooled DataSource shared by all tests of the run, not {@link AutoCloseable} (see
	 * {@link PostgresTestServer#dataSource()}).
	 * @return the shared DataSource
	 * @throws IllegalStateException saying how to start the server, when it does not answer
	 */
	public static DataSource dataSource() {
		try {
			return POOL.dataSource();
		}
		catch (RuntimeException ex) {
			throw new IllegalStateException("The MariaDB store tests need MariaDB at " + url() + " (user " + user()
					+ ") and could not connect. Start the local server with: start-stop-daemon --start --oknodo "
					+ "--background --exec /usr/sbin/mariadbd (or point MARIADB_HOST, MARIADB_PORT, "
					+ "MARIADB_DATABASE, MARIADB_USER and MARIADB_PASSWORD at another one).", ex);
		}
	}

	/**
	 * The same server through MySQL Connector/J ({@code jdbc:mysql:}, which must be on the test class
	 * path): what a MySQL application's driver does with the store's statements (its update counts,
	 * its time zone and type conversions), short of a MySQL server.
	 * @return a second shared DataSource
	 * @throws IllegalStateException saying how to start the server, when it does not answer
	 */
	public static DataSource dataSourceThroughMySqlConnector() {
		try {
			return MYSQL_CONNECTOR_POOL.dataSource();
		}
		catch (RuntimeException ex) {
			throw new IllegalStateException("The MariaDB store tests need MariaDB at " + url() + " (user " + user()
					+ "), reached here through MySQL Connector/J, and could not connect.", ex);
		}
	}

	/** {@return the HikariCP pool behind {@link #dataSource()}} */
	public static HikariDataSource hikari() {
		return POOL.hikari();
	}

	/** {@return a JdbcTemplate on the shared DataSource} */
	public static JdbcTemplate jdbcTemplate() {
		return new JdbcTemplate(dataSource());
	}

	private static String url() {
		return "jdbc:mariadb://" + env("MARIADB_HOST", "127.0.0.1") + ":" + env("MARIADB_PORT", "3306") + "/"
				+ env("MARIADB_DATABASE", "test");
	}

	private static String user() {
		return env("MARIADB_USER", "root");
	}

	private static String password() {
		return env("MARIADB_PASSWORD", "");
	}

	private static HikariConfig poolConfig(String name, String url) {
		HikariConfig config = new HikariConfig();
		config.setPoolName(name);
		// Enough for the race tests' threads to hold a connection each at the same moment.
		config.setMaximumPoolSize(24);
		config.setJdbcUrl(url);
		config.setUsername(user());
		config.setPassword(password());
		// Start-up fails within this when the server is not there, with the reason.
		config.setInitializationFailTimeout(3000);
		return config;
	}

	private static String env(String name, String fallback) {
		String value = System.getenv(name);
		return (value != null && !value.isBlank()) ? value : fallback;
	}

}
