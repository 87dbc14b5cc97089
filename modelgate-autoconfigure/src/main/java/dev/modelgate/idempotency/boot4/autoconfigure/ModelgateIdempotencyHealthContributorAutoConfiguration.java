package dev.modelgate.idempotency.boot4.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

import dev.modelgate.idempotency.actuate.IdempotencyStoreHealthDetails;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyAutoConfiguration;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties;
import dev.modelgate.idempotency.core.IdempotencyStore;

/**
 * The {@code idempotency} health contributor: whether the configured store answers, with what the store
 * adds (the auto-configured Redis store: its eviction policy). Turned off with
 * {@code management.health.idempotency.enabled=false}.
 */
@AutoConfiguration(after = ModelgateIdempotencyAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBooleanProperty(name = "modelgate.idempotency.enabled", matchIfMissing = true)
@ConditionalOnBean(IdempotencyStore.class)
@ConditionalOnEnabledHealthIndicator("idempotency")
public class ModelgateIdempotencyHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "idempotencyHealthIndicator")
	IdempotencyStoreHealthIndicator idempotencyHealthIndicator(IdempotencyStore store,
			ModelgateIdempotencyProperties properties, ObjectProvider<IdempotencyStoreHealthDetails> details) {
		return new IdempotencyStoreHealthIndicator(store, properties.getOperationTimeout(),
				details.getIfUnique(IdempotencyStoreHealthDetails::none));
	}

}
