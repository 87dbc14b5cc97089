package dev.modelgate.idempotency.jdbc;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.idempotency.testsupport.MariaDbTestServer;
import dev.modelgate.idempotency.testsupport.PostgresTestServer;

/**
 * The real servers the store tests run on. A test class runs on PostgreSQL; its MariaDB subclass
 * overrides {@code database()}, so that both run the same test methods.
 */
enum TestDatabase {

	POSTGRESQL(JdbcDatabase.POSTGRESQL, "statement_timestamp()") {

		@Override
		DataSource dataSource() {
			return PostgresTestServer.dataSource();
		}

		@Override
		String secondsFromNow(String column) {
			return "EXTRACT(EPOCH FROM " + column + " - statement_timestamp())";
		}

		@Override
		String url(int port) {
			return "jdbc:postgresql://127.0.0.1:" + port + "/test?connectTimeout=2";
		}

	},

	MARIADB(JdbcDatabase.MARIADB, "UTC_TIMESTAMP(6)") {

		@Override
		DataSource dataSource() {
			return MariaDbTestServer.dataSource();
		}

		@Override
		String secondsFromNow(String column) {
			return "TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), " + column + ") / 1000000.0";
		}

		@Override
		String url(int port) {
			return "jdbc:mariadb://127.0.0.1:" + port + "/test?connectTimeout=2000";
		}

	},

	/**
	 * MariaDB through MySQL Connector/J, the driver of a MySQL application: MySQL's statements are
	 * MariaDB's, so what this adds is the driver's side (update counts, time conversions, errors). No
	 * MySQL server runs here.
	 */
	MARIADB_THROUGH_MYSQL_CONNECTOR(JdbcDatabase.MARIADB, "UTC_TIMESTAMP(6)") {

		@Override
		DataSource dataSource() {
			return MariaDbTestServer.dataSourceThroughMySqlConnector();
		}

		@Override
		String secondsFromNow(String column) {
			return MARIADB.secondsFromNow(column);
		}

		@Override
		String url(int port) {
			return "jdbc:mysql://127.0.0.1:" + port + "/test?connectTimeout=2000";
		}

	};

	private final Set<String> created = ConcurrentHashMap.newKeySet();

	private final JdbcDatabase database;

	private final String now;

	TestDatabase(JdbcDatabase database, String now) {
		this.database = database;
		this.now = now;
	}

	/** {@return the shared pooled DataSource} */
	abstract DataSource dataSource();

	/** {@return an expression for the seconds from the database's now to {@code column}} */
	abstract String secondsFromNow(String column);

	/** {@return a JDBC URL for this database's driver on {@code port} of this machine} */
	abstract String url(int port);

	JdbcDatabase database() {
		return this.database;
	}

	/** {@return the database clock as the store reads it, the start of the statement} */
	String now() {
		return this.now;
	}

	JdbcTemplate jdbcTemplate() {
		return new JdbcTemplate(dataSource());
	}

	HikariDataSource hikari() {
		try {
			return dataSource().unwrap(HikariDataSource.class);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** A store on {@code table} with the default settings. */
	JdbcIdempotencyStore store(JdbcTemplate jdbcTemplate, String table) {
		return store(jdbcTemplate, table, JdbcIdempotencyStore.DEFAULT_APPLIED_RETENTION, null);
	}

	JdbcIdempotencyStore store(JdbcTemplate jdbcTemplate, String table, Duration appliedRetention,
			JdbcIdempotencyStore.@Nullable CallLimit callLimit) {
		return new JdbcIdempotencyStore(this.database, jdbcTemplate, table, appliedRetention, false, callLimit);
	}

	/**
	 * Drops {@code table} and its events table and creates them from the store's script, the first
	 * time a test of this run asks for it.
	 */
	void createOnce(String table) {
		if (this.created.add(table)) {
			JdbcTemplate jdbcTemplate = jdbcTemplate();
			jdbcTemplate.execute("DROP TABLE IF EXISTS " + table + "_events, " + table);
			JdbcIdempotencySchema.create(dataSource(), this.database, table);
		}
	}

	/** Drops {@code table} and creates it with {@code columns}, the first time a test of this run asks for it. */
	void createBusinessTableOnce(String table, String columns) {
		if (this.created.add(table)) {
			JdbcTemplate jdbcTemplate = jdbcTemplate();
			jdbcTemplate.execute("DROP TABLE IF EXISTS " + table);
			jdbcTemplate.execute("CREATE TABLE " + table + " (" + columns + ")");
		}
	}

}
