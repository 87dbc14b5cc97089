package dev.modelgate.idempotency.web.reactive;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import dev.modelgate.idempotency.testsupport.RedisTestServer;

/** Through the blocking Redis store on the adapter's pool, until a reactive Redis store is there. */
@TestPropertySource(properties = { "modelgate.idempotency.store=redis",
		"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration" })
class RedisStoreReactiveIdempotencyHttpTests extends AbstractReactiveIdempotencyHttpTests {

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", RedisTestServer::host);
		registry.add("spring.data.redis.port", RedisTestServer::port);
	}

}
