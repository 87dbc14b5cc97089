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
		if (cause.isTestSlice()) {
			return new FailureAnalysis(description + " This is a test slice (such as @WebMvcTest), which "
					+ "auto-configures neither Redis nor a DataSource.", """
					Let the test use the in-memory store, or give it a store:
					  - Do not name a store for the test: with modelgate.idempotency.store unset or auto, a test slice \
					uses the in-memory store. A store named in application.properties can be overridden for the test, \
					for example @WebMvcTest(properties = "modelgate.idempotency.store=memory").
					  - Or declare a dev.modelgate.idempotency.core.IdempotencyStore bean in the test \
					(a @TestConfiguration bean, or @MockitoBean).""", cause);
		}
		String redis = """
				  - Redis: add org.springframework.boot:spring-boot-starter-data-redis and set spring.data.redis.host \
				(and modelgate.idempotency.store=redis to be explicit).""";
		if (cause.isRedisOnClassPath() && cause.getStoreType() != ModelgateIdempotencyProperties.StoreType.JDBC) {
			description += " Spring Data Redis is on the class path, but its auto-configuration did not define a "
					+ "RedisConnectionFactory: it is excluded, or this context (a test, or one assembled by hand) "
					+ "leaves it out.";
			redis = """
					  - Redis: Spring Data Redis is already on the class path. Let DataRedisAutoConfiguration run \
					(do not exclude it) and set spring.data.redis.host, or declare a RedisConnectionFactory bean.""";
		}
		String action = "Give the starter a store, in one of these ways:\n" + redis + "\n" + """
				  - PostgreSQL, MariaDB or MySQL: add org.springframework.boot:spring-boot-starter-jdbc and a driver, set spring.datasource.url \
				and modelgate.idempotency.store=jdbc.
				  - A single process only (tests, demos): set modelgate.idempotency.store=memory.
				  - Or declare your own dev.modelgate.idempotency.core.IdempotencyStore bean, \
				or set modelgate.idempotency.enabled=false.""";
		return new FailureAnalysis(description, action, cause);
	}

}
