package dev.modelgate.idempotency.autoconfigure;

import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;

import dev.modelgate.idempotency.boot3.autoconfigure.IdempotencyStoreHealthIndicator;
import dev.modelgate.idempotency.boot3.autoconfigure.ModelgateIdempotencyHealthContributorAutoConfiguration;

/**
 * The Redis store's eviction guard on Spring Boot 3.5: the Boot 4 module's tests, after Spring Boot
 * 3's Redis auto-configuration, in Spring Boot 3's health, and with the failure analyzer registered
 * in this line's spring.factories.
 */
class SpringBoot3RedisEvictionPolicyTests extends AbstractRedisEvictionPolicyGuardTests {

	SpringBoot3RedisEvictionPolicyTests() {
		super(RedisAutoConfiguration.class, new LineHealth(ModelgateIdempotencyHealthContributorAutoConfiguration.class,
				IdempotencyStoreHealthIndicator.class));
	}

}
