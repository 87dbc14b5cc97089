package dev.modelgate.idempotency.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Names the DDL that creates the JDBC store's table, and the two ways to run it. */
class MissingIdempotencyTableFailureAnalyzer extends AbstractFailureAnalyzer<MissingIdempotencyTableException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, MissingIdempotencyTableException cause) {
		String description = "The idempotency JDBC store keeps its records in the table " + cause.getMissingTable()
				+ ", which does not exist in the application's " + cause.getDatabase().productName()
				+ " database; every keyed request would be answered 503.";
		String action = "Create the table with the DDL in classpath:" + cause.getDatabase().schemaLocation()
				+ " (in the jar modelgate-idempotency-jdbc):\n"
				+ "  - with Flyway or Liquibase: copy the script into a migration, replacing %TABLE_NAME% and "
				+ "%TABLE_BASE_NAME% with " + cause.getTableName() + ";\n"
				+ "  - or let the application create it at start-up: set "
				+ "modelgate.idempotency.jdbc.initialize-schema=always.";
		return new FailureAnalysis(description, action, cause);
	}

}
