package dev.modelgate.reliability.support;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A database of the suite's own on the machine's MariaDB server ({@code MARIADB_HOST}:{@code MARIADB_PORT},
 * default 127.0.0.1:3306, user {@code root} without password, as the store tests use it), created for one
 * scenario and dropped after it. Unlike {@link PostgresServer} it is not a server process of the suite's own:
 * the scenarios that use it kill gateways, never the database.
 */
public final class MariaDbDatabase implements StoreServer {

	private final String host = env("MARIADB_HOST", "127.0.0.1");

	private final String port = env("MARIADB_PORT", "3306");

	private final String database;

	private MariaDbDatabase(String database) {
		this.database = database;
	}

	/**
	 * Creates the scenario's database.
	 * @param scenario the scenario it serves (names the database)
	 */
	public static MariaDbDatabase start(String scenario) {
		String name = ("reliability_" + scenario + "_" + UUID.randomUUID().toString().substring(0, 8)).replace('-', '_');
		MariaDbDatabase database = new MariaDbDatabase(name);
		database.sql("CREATE DATABASE " + name);
		return database;
	}

	@Override
	public String name() {
		return "mariadb";
	}

	@Override
	public List<String> gatewayArguments() {
		return List.of();
	}

	/** The sample app's {@code mariadb} profile: the JDBC store and the credit ledger on one DataSource. */
	@Override
	public Map<String, String> gatewayEnvironment() {
		return Map.of("SPRING_PROFILES_ACTIVE", "mariadb", "MARIADB_HOST", this.host, "MARIADB_PORT", this.port,
				"MARIADB_DATABASE", this.database, "MARIADB_USER", "root", "MARIADB_PASSWORD", "");
	}

	/** Rows in the sample app's {@code credit_charges} table: one per committed charge. */
	public long creditCharges() {
		return Long.parseLong(sql("SELECT count(*) FROM " + this.database + ".credit_charges"));
	}

	/** Runs one statement with the {@code mysql} client and answers its tab-separated output without headers. */
	private String sql(String statement) {
		return ManagedProcess
			.run(Duration.ofSeconds(30), "mysql", "-uroot", "-h", this.host, "-P", this.port, "--protocol=TCP", "-N",
					"-B", "-e", statement)
			.strip();
	}

	@Override
	public void close() {
		sql("DROP DATABASE IF EXISTS " + this.database);
	}

	@Override
	public String toString() {
		return "MariaDB database " + this.database + " on " + this.host + ":" + this.port;
	}

	private static String env(String name, String fallback) {
		String value = System.getenv(name);
		return (value != null && !value.isBlank()) ? value : fallback;
	}

}
