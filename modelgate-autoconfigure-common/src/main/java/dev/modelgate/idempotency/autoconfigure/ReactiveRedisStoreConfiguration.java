package dev.modelgate.idempotency.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties.StoreType;
import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.redis.AsyncRedisIdempotencyStore;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;

/**
 * In a reactive web application whose store is Redis on Lettuce (Spring Data Redis's reactive
 * connection factory, and Spring Boot's default client), the non-blocking Redis store beside the blocking
 * one: the same connection factory, key prefix and records, so that the reactive filter never blocks an
 * event-loop thread on Redis while the health check, the Actuator endpoint and non-HTTP work keep the
 * blocking store. It follows the blocking store ({@link RedisStoreConfiguration}): where that one is not
 * Redis (another store was chosen or declared), neither is this one.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass(value = { LettuceConnectionFactory.class, AsyncRedisIdempotencyStore.class },
		name = "io.lettuce.core.RedisClient")
@ConditionalOnStoreType(StoreType.REDIS)
@ConditionalOnBean({ LettuceConnectionFactory.class, RedisIdempotencyStore.class })
@ConditionalOnMissingBean(AsyncIdempotencyStore.class)
class ReactiveRedisStoreConfiguration {

	@Bean
	AsyncRedisIdempotencyStore asyncRedisIdempotencyStore(LettuceConnectionFactory connectionFactory,
			ModelgateIdempotencyProperties properties) {
		if (properties.getRedis().getReplicaAcknowledgements() > 0) {
			throw new IllegalStateException("modelgate.idempotency.redis.replica-acknowledgements is not supported by "
					+ "the reactive Redis store of a reactive web application (WAIT would hold a connection of its own "
					+ "per call): set it to 0, or declare an AsyncIdempotencyStore bean of your own, such as the "
					+ "blocking Redis store run on a bounded pool, which supports it");
		}
		return new AsyncRedisIdempotencyStore(connectionFactory, properties.getRedis().getKeyPrefix(),
				properties.getOperationTimeout());
	}

}
