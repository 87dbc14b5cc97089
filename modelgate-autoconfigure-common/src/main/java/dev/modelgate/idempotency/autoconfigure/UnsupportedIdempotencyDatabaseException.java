package dev.modelgate.idempotency.autoconfigure;

import dev.modelgate.idempotency.jdbc.JdbcDatabase;

/**
 * The application's DataSource is a database the JDBC store has no statements for. Thrown at start-up
 * instead of picking the store silently and failing on the first keyed request.
 */
class UnsupportedIdempotencyDatabaseException extends RuntimeException {

	private final String database;

	UnsupportedIdempotencyDatabaseException(String database) {
		super("The idempotency JDBC store supports " + JdbcDatabase.supported() + ", and the DataSource is " + database);
		this.database = database;
	}

	String getDatabase() {
		return this.database;
	}

}
