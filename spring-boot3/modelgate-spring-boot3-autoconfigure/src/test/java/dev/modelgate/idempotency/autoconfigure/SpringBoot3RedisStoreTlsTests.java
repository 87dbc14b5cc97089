package dev.modelgate.idempotency.autoconfigure;

import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;

import dev.modelgate.idempotency.boot3.autoconfigure.IdempotencyStoreHealthIndicator;
import dev.modelgate.idempotency.boot3.autoconfigure.ModelgateIdempotencyHealthContributorAutoConfiguration;

/**
 * On Spring Boot 3.5, the Redis store over TLS: the Boot 4 module's tests, with the same
 * {@code spring.data.redis.ssl.bundle} and PEM bundle properties, after Spring Boot 3's Redis
 * auto-configuration.
 */
class SpringBoot3RedisStoreTlsTests extends AbstractRedisStoreTlsTests {

	SpringBoot3RedisStoreTlsTests() {
		super(RedisAutoConfiguration.class, new LineHealth(ModelgateIdempotencyHealthContributorAutoConfiguration.class,
				IdempotencyStoreHealthIndicator.class));
	}

}
