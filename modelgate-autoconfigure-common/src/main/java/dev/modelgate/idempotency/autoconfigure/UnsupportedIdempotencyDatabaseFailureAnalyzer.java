package dev.modelgate.idempotency.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import dev.modelgate.idempotency.jdbc.JdbcDatabase;

/** Explains, at start-up, which databases the JDBC store supports and what to do instead. */
class UnsupportedIdempotencyDatabaseFailureAnalyzer
		extends AbstractFailureAnalyzer<UnsupportedIdempotencyDatabaseException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnsupportedIdempotencyDatabaseException cause) {
		String description = "The idempotency store would keep its records in the application's DataSource, which is "
				+ cause.getDatabase() + "; the JDBC store supports " + JdbcDatabase.supported() + ".";
		String action = """
				Choose another store for the idempotency records:
				  - Redis: add org.springframework.boot:spring-boot-starter-data-redis and set modelgate.idempotency.store=redis.
				  - A PostgreSQL, MariaDB or MySQL DataSource of its own: declare a dev.modelgate.idempotency.jdbc.JdbcIdempotencyStore bean.
				  - A single process only (tests, demos): set modelgate.idempotency.store=memory.""";
		return new FailureAnalysis(description, action, cause);
	}

}
