package dev.modelgate.idempotency.autoconfigure;

import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;

import dev.modelgate.idempotency.boot4.autoconfigure.IdempotencyStoreHealthIndicator;
import dev.modelgate.idempotency.boot4.autoconfigure.ModelgateIdempotencyHealthContributorAutoConfiguration;

/** The Redis store's eviction guard after Spring Boot 4's Redis auto-configuration. */
class RedisEvictionPolicyGuardTests extends AbstractRedisEvictionPolicyGuardTests {

	RedisEvictionPolicyGuardTests() {
		super(DataRedisAutoConfiguration.class, new LineHealth(ModelgateIdempotencyHealthContributorAutoConfiguration.class,
				IdempotencyStoreHealthIndicator.class));
	}

}
