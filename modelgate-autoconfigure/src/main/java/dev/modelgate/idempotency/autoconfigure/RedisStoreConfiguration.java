package dev.modelgate.idempotency.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties.StoreType;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;

/** The Redis store, on the application's {@link RedisConnectionFactory}. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(RedisConnectionFactory.class)
@ConditionalOnBean(RedisConnectionFactory.class)
@ConditionalOnStoreType(StoreType.REDIS)
@ConditionalOnMissingBean(IdempotencyStore.class)
class RedisStoreConfiguration {

	@Bean
	RedisIdempotencyStore redisIdempotencyStore(RedisConnectionFactory connectionFactory,
			ModelgateIdempotencyProperties properties) {
		return new RedisIdempotencyStore(connectionFactory, properties.getRedis().getKeyPrefix());
	}

}
