package dev.modelgate.idempotency.web;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import dev.modelgate.idempotency.testsupport.RedisTestServer;

/** The shared HTTP behaviour tests on Spring Boot 3.5, Redis store through Boot 3's Redis auto-configuration. */
@TestPropertySource(properties = { "modelgate.idempotency.store=redis",
		"spring.autoconfigure.exclude=org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration" })
class RedisStoreIdempotencyFilterHttpTests extends AbstractIdempotencyFilterHttpTests {

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", RedisTestServer::host);
		registry.add("spring.data.redis.port", RedisTestServer::port);
	}

}
