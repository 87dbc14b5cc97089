package dev.modelgate.idempotency.testsupport;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;


/**
 * The PostgreSQL server the JDBC tests run on: the one at {@code PGHOST:PGPORT} (default
 * 127.0.0.1:5432, database {@code PGDATABASE}, default {@code test}, user {@code PGUSER}, default
 * {@code postgres}, trust authentication), else a Testcontainers one when Docker is available. With
 * neither, the tests fail and say how to start a server; they are never skipped.
 */
public final class PostgresTestServer {

	private static final TestPool POOL = new TestPool(PostgresTestServer::poolConfig);

	private PostgresTestServer() {
	}

	/**
	 * A pooled DataSource shared by all tests of the run. It is not {@link AutoCloseable}, so an
	 * application context that is given it as a bean cannot close it under the other tests.
	 * @return the shared DataSource
	 */
	public static DataSource dataSource() {
		return POOL.dataSource();
	}

	/** {@return the HikariCP pool behind {@link #dataSource()}, for tests of what a pool's settings change} */
	public static HikariDataSource hikari() {
		return POOL.hikari();
	}

	/** {@return a JdbcTemplate on the shared DataSource} */
	public static JdbcTemplate jdbcTemplate() {
		return new JdbcTemplate(dataSource());
	}

	/**
	 * Drops {@code tableName} and its events table ({@code tableName_events}) and creates them again
	 * with {@code schema}, the store's script for it (such as {@code JdbcIdempotencySchema.script(tableName)}),
	 * as start-up would.
	 * @param tableName the table
	 * @param schema the SQL script that creates it
	 */
	public static void recreateTable(String tableName, String schema) {
		jdbcTemplate().execute("DROP TABLE IF EXISTS " + tableName + "_events, " + tableName);
		new ResourceDatabasePopulator(new ByteArrayResource(schema.getBytes(StandardCharsets.UTF_8)))
			.execute(dataSource());
	}

	/**
	 * {@return whether {@code tableName} exists}
	 * @param tableName the table
	 */
	public static boolean tableExists(String tableName) {
		return Boolean.TRUE.equals(
				jdbcTemplate().queryForObject("SELECT to_regclass(?) IS NOT NULL", Boolean.class, tableName));
	}

	private static HikariConfig poolConfig() {
		String host = env("PGHOST", "127.0.0.1");
		String port = env("PGPORT", "5432");
		String database = env("PGDATABASE", "test");
		String user = env("PGUSER", "postgres");
		String url = "jdbc:postgresql://" + host + ":" + port + "/" + database;
		HikariConfig config = new HikariConfig();
		config.setPoolName("modelgate-test");
		// Enough for the race tests' threads to hold a connection each at the same moment.
		config.setMaximumPoolSize(24);
		if (isReachable(url, user)) {
			config.setJdbcUrl(url);
			config.setUsername(user);
			return config;
		}
		if (DockerClientFactory.instance().isDockerAvailable()) {
			PostgreSQLContainer container = new PostgreSQLContainer("postgres:16-alpine");
			container.start();
			Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
			config.setJdbcUrl(container.getJdbcUrl());
			config.setUsername(container.getUsername());
			config.setPassword(container.getPassword());
			return config;
		}
		throw new IllegalStateException("The JDBC store tests need PostgreSQL at " + url + " (user " + user
				+ ", trust authentication) or Docker for Testcontainers, and found neither. Start the local server "
				+ "with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start "
				+ "(or point PGHOST, PGPORT, PGDATABASE and PGUSER at another one).");
	}

	private static boolean isReachable(String url, String user) {
		Properties properties = new Properties();
		properties.setProperty("user", user);
		properties.setProperty("connectTimeout", "3");
		try (Connection connection = DriverManager.getConnection(url, properties)) {
			return connection.isValid(3);
		}
		catch (SQLException ex) {
			return false;
		}
	}

	private static String env(String name, String fallback) {
		String value = System.getenv(name);
		return (value != null && !value.isBlank()) ? value : fallback;
	}

}
