package dev.modelgate.idempotency.autoconfigure;

import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;

/** The Redis store's eviction guard after Spring Boot 4's Redis auto-configuration. */
class RedisEvictionPolicyGuardTests extends AbstractRedisEvictionPolicyGuardTests {

	RedisEvictionPolicyGuardTests() {
		super(DataRedisAutoConfiguration.class);
	}

}
