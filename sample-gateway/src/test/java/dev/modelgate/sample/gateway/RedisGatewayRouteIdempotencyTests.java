package dev.modelgate.sample.gateway;

import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.TestPropertySource;

/**
 * {@link GatewayRouteIdempotencyTests} on the Redis server at 127.0.0.1:6379.
 */
@TestPropertySource(properties = { "modelgate.idempotency.store=redis", "spring.data.redis.host=127.0.0.1",
		"spring.data.redis.port=6379" })
class RedisGatewayRouteIdempotencyTests extends GatewayRouteIdempotencyTests {

	@Test
	void duplicateOnASecondInstanceAttachesToTheLiveStream() throws Exception {
		try (ConfigurableApplicationContext second = startSecondInstance()) {
			assertDuplicateOnTheSecondInstanceAttaches(second);
		}
	}

}
