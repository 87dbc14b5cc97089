package dev.modelgate.sample.cache;

import java.time.Clock;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties.StoreType;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Puts the response cache where the idempotency records are: in Redis when
 * {@code modelgate.idempotency.store=redis}, so that every instance shares it, in memory otherwise.
 */
@Configuration(proxyBeanMethods = false)
class ResponseCacheConfiguration {

	@Bean
	ResponseCache responseCache(ResponseCacheProperties properties, Environment environment,
			ObjectProvider<RedisConnectionFactory> redisConnectionFactory) {
		if (idempotencyStore(environment) == StoreType.REDIS) {
			return new RedisResponseCache(redisConnectionFactory.getObject(), properties.getKeyPrefix(),
					properties.getTtl());
		}
		return new InMemoryResponseCache(properties.getTtl(), properties.getMaxEntries(), Clock.systemUTC());
	}

	// Bound here rather than taken from the library's properties bean, so the choice does not depend
	// on whether idempotency handling is enabled.
	private static StoreType idempotencyStore(Environment environment) {
		return Binder.get(environment).bind("modelgate.idempotency.store", StoreType.class).orElse(StoreType.AUTO);
	}

}
