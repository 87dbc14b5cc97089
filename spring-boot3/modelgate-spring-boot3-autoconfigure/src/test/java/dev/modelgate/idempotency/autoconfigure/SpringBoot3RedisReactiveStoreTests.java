package dev.modelgate.idempotency.autoconfigure;

import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;

import dev.modelgate.idempotency.boot3.autoconfigure.IdempotencyStoreHealthIndicator;
import dev.modelgate.idempotency.boot3.autoconfigure.ModelgateIdempotencyHealthContributorAutoConfiguration;

/**
 * On Spring Boot 3.5, the reactive Redis store's auto-configuration: the Boot 4 module's tests, after
 * Spring Boot 3's Redis auto-configuration.
 */
class SpringBoot3RedisReactiveStoreTests extends AbstractRedisReactiveStoreTests {

	SpringBoot3RedisReactiveStoreTests() {
		super(RedisAutoConfiguration.class, new LineHealth(ModelgateIdempotencyHealthContributorAutoConfiguration.class,
				IdempotencyStoreHealthIndicator.class));
	}

}
