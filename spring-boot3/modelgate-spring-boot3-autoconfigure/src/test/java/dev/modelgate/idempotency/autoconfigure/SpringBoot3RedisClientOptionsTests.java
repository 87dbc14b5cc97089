package dev.modelgate.idempotency.autoconfigure;

import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;

/** On Spring Boot 3.5, the Redis store's Lettuce client after Spring Boot 3's Redis auto-configuration. */
class SpringBoot3RedisClientOptionsTests extends AbstractRedisClientOptionsTests {

	SpringBoot3RedisClientOptionsTests() {
		super(RedisAutoConfiguration.class);
	}

}
