package dev.modelgate.idempotency.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.modelgate.idempotency.core.IdempotencyStore;

/**
 * Imported last: when no store configuration matched, fail start-up with a message that says how to
 * fix it, instead of letting {@code @Idempotent} endpoints run unprotected.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnMissingBean(IdempotencyStore.class)
class NoStoreConfiguration {

	@Bean
	IdempotencyStore missingIdempotencyStore(org.springframework.core.env.Environment environment) {
		throw new NoIdempotencyStoreException(
				org.springframework.boot.context.properties.bind.Binder.get(environment)
					.bind(OnStoreTypeCondition.PROPERTY, ModelgateIdempotencyProperties.StoreType.class)
					.orElse(ModelgateIdempotencyProperties.StoreType.AUTO));
	}

}
