package dev.modelgate.idempotency.autoconfigure;

import java.util.List;

import javax.sql.DataSource;

import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.sql.init.DatabaseInitializationSettings;

import dev.modelgate.idempotency.jdbc.JdbcDatabase;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencySchema;

/**
 * Creates the idempotency table at start-up from the database's script (see
 * {@link JdbcIdempotencySchema}), as Spring Session does for its JDBC store: {@code always}, only
 * for an embedded database, or {@code never} (then nothing
 * touches the database at start-up). The script creates only what is missing, so it is safe on every
 * start, and instances that start together take turns (see {@link #runScripts}). Its
 * {@code %TABLE_NAME%} and {@code %TABLE_BASE_NAME%} placeholders are replaced by the configured table
 * name, with and without its schema.
 */
public class JdbcIdempotencySchemaInitializer extends DataSourceScriptDatabaseInitializer {

	private final JdbcDatabase database;

	private final String tableName;

	private final DataSource dataSource;

	/**
	 * @param dataSource where to create the table
	 * @param tableName the table, {@code name} or {@code schema.name}
	 * @param mode when to create it
	 * @throws IllegalArgumentException when the table name is not a plain SQL identifier
	 */
	public JdbcIdempotencySchemaInitializer(DataSource dataSource, String tableName, DatabaseInitializationMode mode) {
		this(dataSource, JdbcDatabase.POSTGRESQL, tableName, mode);
	}

	/**
	 * @param dataSource where to create the table
	 * @param database which database it is, whose script creates the table
	 * @param tableName the table, {@code name} or {@code schema.name}
	 * @param mode when to create it
	 * @throws IllegalArgumentException when the table name is not a plain SQL identifier
	 */
	public JdbcIdempotencySchemaInitializer(DataSource dataSource, JdbcDatabase database, String tableName,
			DatabaseInitializationMode mode) {
		super(dataSource, settings(database, mode));
		JdbcIdempotencySchema.script(database, tableName);
		this.database = database;
		this.tableName = tableName;
		this.dataSource = dataSource;
	}

	private static DatabaseInitializationSettings settings(JdbcDatabase database, DatabaseInitializationMode mode) {
		DatabaseInitializationSettings settings = new DatabaseInitializationSettings();
		settings.setSchemaLocations(List.of("classpath:" + database.schemaLocation()));
		settings.setMode(mode);
		return settings;
	}

	/** Runs the store's own script under its lock (see {@link JdbcIdempotencySchema#create}). */
	@Override
	protected void runScripts(Scripts scripts) {
		JdbcIdempotencySchema.create(this.dataSource, this.database, this.tableName);
	}

}
