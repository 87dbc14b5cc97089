package dev.modelgate.idempotency.autoconfigure;

import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;

/** The Redis store's Lettuce client after Spring Boot 4's Redis auto-configuration. */
class RedisClientOptionsTests extends AbstractRedisClientOptionsTests {

	RedisClientOptionsTests() {
		super(DataRedisAutoConfiguration.class);
	}

}
