package dev.modelgate.idempotency.web.reactive;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import dev.modelgate.idempotency.testsupport.RedisTestServer;

/** The status resource through the blocking Redis store on the adapter's pool. */
@TestPropertySource(properties = { "modelgate.idempotency.store=redis",
		"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration" })
class RedisStoreReactiveStatusResourceHttpTests extends AbstractReactiveStatusResourceHttpTests {

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", RedisTestServer::host);
		registry.add("spring.data.redis.port", RedisTestServer::port);
	}

}
