package dev.modelgate.sample.gateway;

import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.TestPropertySource;

/**
 * {@link GatewayRouteIdempotencyTests} on the PostgreSQL server at 127.0.0.1:5432 (database
 * {@code test}), the table created at start-up.
 */
@TestPropertySource(properties = { "modelgate.idempotency.store=jdbc", "spring.autoconfigure.exclude=",
		"spring.datasource.url=jdbc:postgresql://127.0.0.1:5432/test", "spring.datasource.username=postgres",
		"modelgate.idempotency.jdbc.initialize-schema=always" })
class PostgresGatewayRouteIdempotencyTests extends GatewayRouteIdempotencyTests {

	@Test
	void duplicateOnASecondInstanceAttachesToTheLiveStream() throws Exception {
		try (ConfigurableApplicationContext second = startSecondInstance()) {
			assertDuplicateOnTheSecondInstanceAttaches(second);
		}
	}

}
