package dev.modelgate.idempotency.autoconfigure;

import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;

import dev.modelgate.idempotency.boot4.autoconfigure.IdempotencyStoreHealthIndicator;
import dev.modelgate.idempotency.boot4.autoconfigure.ModelgateIdempotencyHealthContributorAutoConfiguration;

/** The reactive Redis store's auto-configuration on Spring Boot 4, after its Redis auto-configuration. */
class RedisReactiveStoreTests extends AbstractRedisReactiveStoreTests {

	RedisReactiveStoreTests() {
		super(DataRedisAutoConfiguration.class, new LineHealth(ModelgateIdempotencyHealthContributorAutoConfiguration.class,
				IdempotencyStoreHealthIndicator.class));
	}

}
