package dev.modelgate.idempotency.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Explains, at start-up, how to give the starter a store. */
class NoIdempotencyStoreFailureAnalyzer extends AbstractFailureAnalyzer<NoIdempotencyStoreException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, NoIdempotencyStoreException cause) {
		String description = switch (cause.getStoreType()) {
			case REDIS -> "modelgate.idempotency.store=redis, but there is no RedisConnectionFactory bean.";
			case JDBC -> "modelgate.idempotency.store=jdbc, but there is no DataSource bean.";
			default -> "@Idempotent endpoints need a store for their records, and none was found: "
					+ "there is neither a RedisConnectionFactory nor a DataSource.";
		};
		String action = """
				Give the starter a store, in one of these ways:
				  - Redis: add org.springframework.boot:spring-boot-starter-data-redis and set spring.data.redis.host \
				(and modelgate.idempotency.store=redis to be explicit).
				  - PostgreSQL: add org.springframework.boot:spring-boot-starter-jdbc and a driver, set spring.datasource.url \
				and modelgate.idempotency.store=jdbc.
				  - A single process only (tests, demos): set modelgate.idempotency.store=memory.
				  - Or declare your own dev.modelgate.idempotency.core.IdempotencyStore bean, \
				or set modelgate.idempotency.enabled=false.""";
		return new FailureAnalysis(description, action, cause);
	}

}
