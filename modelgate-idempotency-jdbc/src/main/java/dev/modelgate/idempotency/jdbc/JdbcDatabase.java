package dev.modelgate.idempotency.jdbc;

import java.util.Locale;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The databases {@link JdbcIdempotencyStore} has statements for, each with its schema script. MariaDB
 * and MySQL share their statements and their script: they use no {@code RETURNING}, which MySQL
 * lacks.
 */
public enum JdbcDatabase {

	/** PostgreSQL: statements in {@code PostgresStatements}, schema {@value JdbcIdempotencySchema#POSTGRESQL}. */
	POSTGRESQL("PostgreSQL", JdbcIdempotencySchema.POSTGRESQL),

	/** MariaDB 10.6 or later: statements in {@code MariaDbStatements}, schema {@value JdbcIdempotencySchema#MARIADB}. */
	MARIADB("MariaDB", JdbcIdempotencySchema.MARIADB),

	/** MySQL 8.0 or later: the MariaDB statements and schema. */
	MYSQL("MySQL", JdbcIdempotencySchema.MARIADB);

	private final String productName;

	private final String schemaLocation;

	JdbcDatabase(String productName, String schemaLocation) {
		this.productName = productName;
		this.schemaLocation = schemaLocation;
	}

	/** {@return the name the database's JDBC driver reports as its product name} */
	public String productName() {
		return this.productName;
	}

	/** {@return the class-path location of this database's schema script} */
	public String schemaLocation() {
		return this.schemaLocation;
	}

	/**
	 * The database a JDBC driver reports. MySQL Connector/J on a MariaDB server reports the product
	 * {@code MySQL} with a version that contains {@code MariaDB}: that is MariaDB.
	 * @param productName {@link java.sql.DatabaseMetaData#getDatabaseProductName()}
	 * @param productVersion {@link java.sql.DatabaseMetaData#getDatabaseProductVersion()}, if known
	 * @return the database, or empty when the store has no statements for it
	 */
	public static Optional<JdbcDatabase> of(@Nullable String productName, @Nullable String productVersion) {
		if (productName == null) {
			return Optional.empty();
		}
		String name = productName.trim().toLowerCase(Locale.ROOT);
		if (name.equals("mysql") && productVersion != null && productVersion.toLowerCase(Locale.ROOT).contains("mariadb")) {
			return Optional.of(MARIADB);
		}
		for (JdbcDatabase database : values()) {
			if (database.productName.toLowerCase(Locale.ROOT).equals(name)) {
				return Optional.of(database);
			}
		}
		return Optional.empty();
	}

	/**
	 * The most statements one store call runs, each with its own connection checkout: on PostgreSQL
	 * two (a release of an applied record), on MariaDB and MySQL three (a begin that takes over an
	 * expired record: the insert, the read, the takeover).
	 * @return how many statements a call's time limit must allow for
	 */
	public int statementsPerCall() {
		return (this == POSTGRESQL) ? 2 : 3;
	}

	/** {@return the names of the supported databases, for messages: "PostgreSQL, MariaDB and MySQL"} */
	public static String supported() {
		return "PostgreSQL, MariaDB and MySQL";
	}

	/**
	 * The statements for a store on {@code table}.
	 * @param table the table, checked by {@link TableName}
	 * @param relaxedCommit whether the writes a later write confirms skip the wait for the flush
	 * (PostgreSQL only; MariaDB and MySQL commit as the server is configured)
	 */
	JdbcStatements statements(String table, boolean relaxedCommit) {
		return (this == POSTGRESQL) ? new PostgresStatements(table, relaxedCommit) : new MariaDbStatements(table);
	}

}
