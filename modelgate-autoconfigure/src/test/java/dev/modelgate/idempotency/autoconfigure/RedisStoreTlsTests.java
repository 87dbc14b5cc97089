package dev.modelgate.idempotency.autoconfigure;

import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;

/** The Redis store over TLS after Spring Boot 4's Redis auto-configuration. */
class RedisStoreTlsTests extends AbstractRedisStoreTlsTests {

	RedisStoreTlsTests() {
		super(DataRedisAutoConfiguration.class);
	}

}
