package dev.modelgate.idempotency.gateway.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.cloud.gateway.filter.factory.GatewayFilterFactory;
import org.springframework.context.annotation.Bean;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties;
import dev.modelgate.idempotency.gateway.IdempotencyGatewayFilterFactory;
import dev.modelgate.idempotency.web.EndpointDefaults;
import dev.modelgate.idempotency.web.reactive.ReactiveIdempotencyEngine;

/**
 * Auto-configures the {@code Idempotency} route filter in a reactive application with Spring Cloud
 * Gateway's WebFlux server, on the engine (store, identity, problems, settings) the WebFlux
 * auto-configuration made.
 *
 * <p>It lives in the gateway module rather than in {@code modelgate-autoconfigure} so that neither
 * Spring Boot line's auto-configuration (nor its tests) gets Spring Cloud Gateway on its class path; it
 * uses only annotations and properties both lines have, so the one class serves both.
 */
@AutoConfiguration(afterName = "dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyWebFluxAutoConfiguration")
@ConditionalOnClass(GatewayFilterFactory.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnBooleanProperty(name = "modelgate.idempotency.enabled", matchIfMissing = true)
@ConditionalOnBean({ ReactiveIdempotencyEngine.class, ModelgateIdempotencyProperties.class })
public class ModelgateIdempotencyGatewayAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	IdempotencyGatewayFilterFactory idempotencyGatewayFilterFactory(ReactiveIdempotencyEngine engine,
			ModelgateIdempotencyProperties properties) {
		Idempotent.InProgress inProgress = (properties.getInProgress() == ModelgateIdempotencyProperties.InProgress.WAIT)
				? Idempotent.InProgress.WAIT : Idempotent.InProgress.REJECT;
		return new IdempotencyGatewayFilterFactory(engine, new EndpointDefaults(properties.getTtl(),
				properties.getLeaseTtl(), properties.getWaitTimeout(), inProgress, properties.getSpentKeyRetention()));
	}

}
