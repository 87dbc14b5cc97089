package dev.modelgate.sample.gateway;

import org.springframework.test.context.TestPropertySource;

/**
 * {@link RouteKeyLifetimeTests} on the PostgreSQL server at 127.0.0.1:5432 (database {@code test}), the
 * table created at start-up.
 */
@TestPropertySource(properties = { "modelgate.idempotency.store=jdbc", "spring.autoconfigure.exclude=",
		"spring.datasource.url=jdbc:postgresql://127.0.0.1:5432/test", "spring.datasource.username=postgres",
		"modelgate.idempotency.jdbc.initialize-schema=always",
		"modelgate.idempotency.jdbc.table-name=modelgate_idempotency_gateway_lifetime" })
class PostgresRouteKeyLifetimeTests extends RouteKeyLifetimeTests {

}
