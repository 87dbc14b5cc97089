package dev.modelgate.idempotency.autoconfigure;

import java.time.Duration;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.modelgate.idempotency.redis.RedisEvictionPolicyReader;

/**
 * The eviction guard of the auto-configured Redis store: the start-up check of the server's
 * {@code maxmemory-policy} and its place in the {@code idempotency} health. Imported by
 * {@link RedisStoreConfiguration}, so it applies exactly when that store is used.
 */
@Configuration(proxyBeanMethods = false)
class RedisEvictionPolicyConfiguration {

	/** How often the start-up check is tried again while Redis has not answered it. */
	static final Duration RETRY_INTERVAL = Duration.ofSeconds(10);

	@Bean
	RedisEvictionPolicyReader redisEvictionPolicyReader(RedisConnectionFactory connectionFactory) {
		return new RedisEvictionPolicyReader(connectionFactory);
	}

	@Bean
	@Lazy(false) // a start-up check: it runs even with spring.main.lazy-initialization=true
	RedisEvictionPolicyGuard redisEvictionPolicyGuard(RedisEvictionPolicyReader reader,
			ModelgateIdempotencyProperties properties) {
		return new RedisEvictionPolicyGuard(reader, properties.getRedis().isRequireNoeviction(),
				properties.getOperationTimeout(), RETRY_INTERVAL);
	}

	@Bean
	RedisEvictionPolicyHealthDetails redisEvictionPolicyHealthDetails(RedisEvictionPolicyReader reader) {
		return new RedisEvictionPolicyHealthDetails(reader);
	}

}
