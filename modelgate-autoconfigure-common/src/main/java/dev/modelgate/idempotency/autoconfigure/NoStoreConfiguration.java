package dev.modelgate.idempotency.autoconfigure;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties.StoreType;
import dev.modelgate.idempotency.core.IdempotencyStore;

/**
 * Imported last: when no store configuration matched, fail start-up with a message that says how to
 * fix it, instead of letting {@code @Idempotent} endpoints run unprotected. The failure records what
 * the message has to be true about: the store asked for, whether Spring Data Redis is on the class
 * path, and whether the context is a test slice.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnMissingBean(IdempotencyStore.class)
class NoStoreConfiguration {

	private static final String REDIS_CONNECTION_FACTORY = "org.springframework.data.redis.connection.RedisConnectionFactory";

	@Bean
	IdempotencyStore missingIdempotencyStore(Environment environment, ConfigurableListableBeanFactory beanFactory) {
		StoreType storeType = Binder.get(environment)
			.bind(OnStoreTypeCondition.PROPERTY, StoreType.class)
			.orElse(StoreType.AUTO);
		throw new NoIdempotencyStoreException(storeType,
				ClassUtils.isPresent(REDIS_CONNECTION_FACTORY, beanFactory.getBeanClassLoader()),
				OnStoreTypeCondition.isTestSlice(beanFactory));
	}

}
