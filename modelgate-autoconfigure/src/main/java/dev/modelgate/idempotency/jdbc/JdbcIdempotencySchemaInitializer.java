package dev.modelgate.idempotency.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.sql.init.DatabaseInitializationSettings;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.Resource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Creates the idempotency table at start-up from {@value #SCHEMA_LOCATION}, as Spring Session does for
 * its JDBC store: {@code always}, only for an embedded database, or {@code never} (then nothing
 * touches the database at start-up). The script creates only what is missing, so it is safe on every
 * start, and instances that start together take turns (see {@link #runScripts}). Its
 * {@code %TABLE_NAME%} and {@code %TABLE_BASE_NAME%} placeholders are replaced by the configured table
 * name, with and without its schema.
 */
public class JdbcIdempotencySchemaInitializer extends DataSourceScriptDatabaseInitializer {

	/** The PostgreSQL DDL, also the source to copy into a Flyway or Liquibase migration. */
	public static final String SCHEMA_LOCATION = "classpath:META-INF/modelgate/schema/postgresql.sql";

	private final TableName tableName;

	private final DataSource dataSource;

	/**
	 * @param dataSource where to create the table
	 * @param tableName the table, {@code name} or {@code schema.name}
	 * @param mode when to create it
	 * @throws IllegalArgumentException when the table name is not a plain SQL identifier
	 */
	public JdbcIdempotencySchemaInitializer(DataSource dataSource, String tableName, DatabaseInitializationMode mode) {
		super(dataSource, settings(mode));
		this.tableName = TableName.of(tableName);
		this.dataSource = dataSource;
	}

	private static DatabaseInitializationSettings settings(DatabaseInitializationMode mode) {
		DatabaseInitializationSettings settings = new DatabaseInitializationSettings();
		settings.setSchemaLocations(List.of(SCHEMA_LOCATION));
		settings.setMode(mode);
		return settings;
	}

	/**
	 * Runs the script in one transaction that first takes a transaction-scoped advisory lock for the
	 * table. Without it, instances starting together on a fresh database race: PostgreSQL lets two
	 * concurrent {@code CREATE TABLE IF NOT EXISTS} both try to create, and the loser fails on a
	 * catalog unique index instead of finding the table. DDL is transactional in PostgreSQL, so the
	 * next instance gets the lock once the table exists, and its script finds everything there.
	 */
	@Override
	protected void runScripts(Scripts scripts) {
		Charset encoding = (scripts.getEncoding() != null) ? scripts.getEncoding() : StandardCharsets.UTF_8;
		List<Resource> named = new ArrayList<>();
		for (Resource script : scripts) {
			named.add(withTableName(script, encoding));
		}
		Scripts withTableName = new Scripts(named).continueOnError(scripts.isContinueOnError())
			.separator(scripts.getSeparator())
			.encoding(encoding);
		new TransactionTemplate(new DataSourceTransactionManager(this.dataSource)).executeWithoutResult((status) -> {
			new JdbcTemplate(this.dataSource).query("SELECT pg_advisory_xact_lock(?)", (rs) -> null, lockKey());
			// The populator takes the connection bound to this transaction, so the script runs under the lock.
			super.runScripts(withTableName);
		});
	}

	/** One lock per table, so that stores on different tables do not wait for each other. */
	private long lockKey() {
		return ("modelgate-idempotency-schema:" + this.tableName.qualified()).hashCode();
	}

	private Resource withTableName(Resource script, Charset encoding) {
		try {
			String sql = script.getContentAsString(encoding)
				.replace("%TABLE_NAME%", this.tableName.qualified())
				.replace("%TABLE_BASE_NAME%", this.tableName.unqualified());
			return new ByteArrayResource(sql.getBytes(encoding), script.getDescription());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read " + script.getDescription(), ex);
		}
	}

}
