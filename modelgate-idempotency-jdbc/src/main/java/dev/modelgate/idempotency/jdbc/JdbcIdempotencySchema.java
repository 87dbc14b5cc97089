package dev.modelgate.idempotency.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import java.util.List;

import javax.sql.DataSource;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The schema of {@link JdbcIdempotencyStore}, one script per database ({@link JdbcDatabase#schemaLocation()}):
 * {@value #POSTGRESQL} and {@value #MARIADB} (MariaDB and MySQL), with their {@code %TABLE_NAME%} and
 * {@code %TABLE_BASE_NAME%} placeholders replaced by the table name, with and without its schema.
 * Each creates only what is missing, so it is safe to run on every start.
 */
public final class JdbcIdempotencySchema {

	/**
	 * The class-path location of the PostgreSQL DDL, also the source to copy into a Flyway or
	 * Liquibase migration.
	 */
	public static final String POSTGRESQL = "META-INF/modelgate/schema/postgresql.sql";

	/** The class-path location of the MariaDB and MySQL DDL. */
	public static final String MARIADB = "META-INF/modelgate/schema/mariadb.sql";

	private JdbcIdempotencySchema() {
	}

	/**
	 * The PostgreSQL script for {@code tableName}.
	 * @param tableName the table, optionally schema-qualified
	 * @return the SQL script
	 * @throws IllegalArgumentException when the table name is not a plain SQL identifier
	 */
	public static String script(String tableName) {
		return script(JdbcDatabase.POSTGRESQL, tableName);
	}

	/**
	 * The script of {@code database} for {@code tableName}.
	 * @param database the database
	 * @param tableName the table, optionally schema-qualified
	 * @return the SQL script
	 * @throws IllegalArgumentException when the table name is not a plain SQL identifier
	 */
	public static String script(JdbcDatabase database, String tableName) {
		TableName name = TableName.of(tableName);
		String location = database.schemaLocation();
		try (InputStream in = JdbcIdempotencySchema.class.getClassLoader().getResourceAsStream(location)) {
			if (in == null) {
				throw new IllegalStateException(location + " is missing from the class path");
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8)
				.replace("%TABLE_NAME%", name.qualified())
				.replace("%TABLE_BASE_NAME%", name.unqualified());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read " + location, ex);
		}
	}

	/**
	 * Adds the spent-key columns and index to a MariaDB or MySQL table created before they existed:
	 * MySQL has no {@code ADD COLUMN IF NOT EXISTS}, so the script cannot (PostgreSQL's does).
	 */
	private static void addSpentKeyColumns(JdbcTemplate jdbc, TableName table) {
		String qualified = table.qualified();
		// The table name is a checked identifier (TableName), so its database part can be quoted as is.
		String schema = qualified.contains(".") ? "'" + qualified.substring(0, qualified.indexOf('.')) + "'"
				: "DATABASE()";
		List<String> columns = jdbc.queryForList("SELECT COLUMN_NAME FROM information_schema.COLUMNS"
				+ " WHERE TABLE_SCHEMA = " + schema + " AND TABLE_NAME = ?", String.class, table.unqualified());
		if (columns.stream().anyMatch("spent_at"::equalsIgnoreCase)) {
			return;
		}
		jdbc.execute("ALTER TABLE " + qualified + " ADD COLUMN spent_at DATETIME(6) NULL, "
				+ "ADD COLUMN spent_status VARCHAR(32) NULL, ADD COLUMN spent_resource VARCHAR(2048) NULL, "
				+ "ADD COLUMN completed_at DATETIME(6) NULL, ADD INDEX " + table.unqualified()
				+ "_spent_at_idx (spent_at)");
	}

	/**
	 * Creates what is missing of the PostgreSQL table, as {@link #create(DataSource, JdbcDatabase, String)}.
	 * @param dataSource the PostgreSQL database
	 * @param tableName the table, optionally schema-qualified
	 */
	public static void create(DataSource dataSource, String tableName) {
		create(dataSource, JdbcDatabase.POSTGRESQL, tableName);
	}

	/**
	 * Creates what is missing of the table. On PostgreSQL in one transaction that first takes a transaction-scoped
	 * advisory lock for the table. Without it, instances starting together on a fresh database race:
	 * PostgreSQL lets two concurrent {@code CREATE TABLE IF NOT EXISTS} both try to create, and the loser
	 * fails on a catalog unique index instead of finding the table. DDL is transactional in PostgreSQL,
	 * so the next instance gets the lock once the table exists, and its script finds everything there.
	 * MariaDB and MySQL need no lock: their DDL is not transactional, and {@code CREATE TABLE IF NOT
	 * EXISTS} waits for a concurrent creation's metadata lock, then finds the table.
	 * @param dataSource the database
	 * @param database which database it is
	 * @param tableName the table, optionally schema-qualified
	 */
	public static void create(DataSource dataSource, JdbcDatabase database, String tableName) {
		String script = script(database, tableName);
		if (database != JdbcDatabase.POSTGRESQL) {
			new ResourceDatabasePopulator(
					new ByteArrayResource(script.getBytes(StandardCharsets.UTF_8), database.schemaLocation()))
				.execute(dataSource);
			addSpentKeyColumns(new JdbcTemplate(dataSource), TableName.of(tableName));
			return;
		}
		long lockKey = ("modelgate-idempotency-schema:" + TableName.of(tableName).qualified()).hashCode();
		new TransactionTemplate(new DataSourceTransactionManager(dataSource)).executeWithoutResult((status) -> {
			new JdbcTemplate(dataSource).query("SELECT pg_advisory_xact_lock(?)", (rs) -> null, lockKey);
			// The populator takes the connection bound to this transaction, so the script runs under the lock.
			new ResourceDatabasePopulator(new ByteArrayResource(script.getBytes(StandardCharsets.UTF_8), POSTGRESQL))
				.execute(dataSource);
		});
	}

}
