package dev.modelgate.idempotency.autoconfigure;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.modelgate.idempotency.actuate.endpoint.IdempotencyEndpoint;
import dev.modelgate.idempotency.core.IdempotencyCoordinator;

/**
 * The {@code idempotency} Actuator endpoint, only when it is both given access (it has none by
 * default: {@code management.endpoint.idempotency.access=read-only} or {@code unrestricted}) and
 * exposed.
 */
@AutoConfiguration(after = ModelgateIdempotencyAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBooleanProperty(name = "modelgate.idempotency.enabled", matchIfMissing = true)
@ConditionalOnBean(IdempotencyCoordinator.class)
@ConditionalOnAvailableEndpoint(IdempotencyEndpoint.class)
public class ModelgateIdempotencyEndpointAutoConfiguration {

	/**
	 * Goes through the coordinator's store, so that look-ups and deletions are bounded by the
	 * operation timeout and observed like every other store call.
	 */
	@Bean
	@ConditionalOnMissingBean
	IdempotencyEndpoint idempotencyEndpoint(IdempotencyCoordinator coordinator,
			ModelgateIdempotencyProperties properties) {
		return new IdempotencyEndpoint(coordinator.getStore(), properties.getKeyMaxLength());
	}

}
