package dev.modelgate.idempotency.autoconfigure;

import dev.modelgate.idempotency.jdbc.JdbcDatabase;

/**
 * The JDBC store's table is not in the database, and nothing at start-up was asked to create it.
 * Thrown at start-up instead of letting every keyed request answer 503.
 */
class MissingIdempotencyTableException extends RuntimeException {

	private final String tableName;

	private final String missingTable;

	private final JdbcDatabase database;

	/**
	 * @param tableName the configured table name, {@code modelgate.idempotency.jdbc.table-name}
	 * @param missingTable the table that is missing: that one or its {@code _events} table
	 * @param database the database the DataSource is on
	 * @param cause the database's answer
	 */
	MissingIdempotencyTableException(String tableName, String missingTable, JdbcDatabase database, Throwable cause) {
		super("The idempotency table " + missingTable + " does not exist in the " + database.productName()
				+ " database: " + cause.getMessage(), cause);
		this.tableName = tableName;
		this.missingTable = missingTable;
		this.database = database;
	}

	String getTableName() {
		return this.tableName;
	}

	String getMissingTable() {
		return this.missingTable;
	}

	JdbcDatabase getDatabase() {
		return this.database;
	}

}
