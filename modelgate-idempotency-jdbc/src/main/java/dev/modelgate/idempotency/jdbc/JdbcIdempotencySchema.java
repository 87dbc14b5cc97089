package dev.modelgate.idempotency.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import javax.sql.DataSource;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The PostgreSQL schema of {@link JdbcIdempotencyStore}: the script at {@value #LOCATION} with its
 * {@code %TABLE_NAME%} and {@code %TABLE_BASE_NAME%} placeholders replaced by the table name, with and
 * without its schema. It creates only what is missing, so it is safe to run on every start.
 */
public final class JdbcIdempotencySchema {

	/** The class-path location of the DDL, also the source to copy into a Flyway or Liquibase migration. */
	public static final String LOCATION = "META-INF/modelgate/schema/postgresql.sql";

	private JdbcIdempotencySchema() {
	}

	/**
	 * The script for {@code tableName}.
	 * @param tableName the table, optionally schema-qualified
	 * @return the SQL script
	 * @throws IllegalArgumentException when the table name is not a plain SQL identifier
	 */
	public static String script(String tableName) {
		TableName name = TableName.of(tableName);
		try (InputStream in = JdbcIdempotencySchema.class.getClassLoader().getResourceAsStream(LOCATION)) {
			if (in == null) {
				throw new IllegalStateException(LOCATION + " is missing from the class path");
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8)
				.replace("%TABLE_NAME%", name.qualified())
				.replace("%TABLE_BASE_NAME%", name.unqualified());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read " + LOCATION, ex);
		}
	}

	/**
	 * Creates what is missing of the table, in one transaction that first takes a transaction-scoped
	 * advisory lock for the table. Without it, instances starting together on a fresh database race:
	 * PostgreSQL lets two concurrent {@code CREATE TABLE IF NOT EXISTS} both try to create, and the loser
	 * fails on a catalog unique index instead of finding the table. DDL is transactional in PostgreSQL,
	 * so the next instance gets the lock once the table exists, and its script finds everything there.
	 * @param dataSource the PostgreSQL database
	 * @param tableName the table, optionally schema-qualified
	 */
	public static void create(DataSource dataSource, String tableName) {
		String script = script(tableName);
		long lockKey = ("modelgate-idempotency-schema:" + TableName.of(tableName).qualified()).hashCode();
		new TransactionTemplate(new DataSourceTransactionManager(dataSource)).executeWithoutResult((status) -> {
			new JdbcTemplate(dataSource).query("SELECT pg_advisory_xact_lock(?)", (rs) -> null, lockKey);
			// The populator takes the connection bound to this transaction, so the script runs under the lock.
			new ResourceDatabasePopulator(new ByteArrayResource(script.getBytes(StandardCharsets.UTF_8), LOCATION))
				.execute(dataSource);
		});
	}

}
