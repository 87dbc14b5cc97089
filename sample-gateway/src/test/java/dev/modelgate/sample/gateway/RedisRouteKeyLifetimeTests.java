package dev.modelgate.sample.gateway;

import org.springframework.test.context.TestPropertySource;

/**
 * {@link RouteKeyLifetimeTests} on the Redis server at 127.0.0.1:6379.
 */
@TestPropertySource(properties = { "modelgate.idempotency.store=redis", "spring.data.redis.host=127.0.0.1",
		"spring.data.redis.port=6379" })
class RedisRouteKeyLifetimeTests extends RouteKeyLifetimeTests {

}
