package dev.modelgate.idempotency.autoconfigure;

import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;

import dev.modelgate.idempotency.boot4.autoconfigure.IdempotencyStoreHealthIndicator;
import dev.modelgate.idempotency.boot4.autoconfigure.ModelgateIdempotencyHealthContributorAutoConfiguration;

/** The Redis store over TLS after Spring Boot 4's Redis auto-configuration. */
class RedisStoreTlsTests extends AbstractRedisStoreTlsTests {

	RedisStoreTlsTests() {
		super(DataRedisAutoConfiguration.class, new LineHealth(ModelgateIdempotencyHealthContributorAutoConfiguration.class,
				IdempotencyStoreHealthIndicator.class));
	}

}
