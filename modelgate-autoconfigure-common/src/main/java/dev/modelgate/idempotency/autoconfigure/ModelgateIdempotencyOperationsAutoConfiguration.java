package dev.modelgate.idempotency.autoconfigure;

import java.time.Duration;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

import dev.modelgate.idempotency.core.FailurePolicy;
import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.operation.IdempotentOperationInterceptor;
import dev.modelgate.idempotency.operation.IdempotentOperationPostProcessor;
import dev.modelgate.idempotency.operation.OperationJson;
import dev.modelgate.idempotency.operation.OperationSource;

/**
 * Idempotency beyond HTTP: an {@link IdempotencyTemplate} on the auto-configured coordinator, and
 * the proxying of {@code @IdempotentOperation} methods through it. Works in any application that has
 * the coordinator, web or not. The {@link OperationJson} the interceptor keeps results with is the
 * Spring Boot line's (Jackson 3 on Spring Boot 4, Jackson 2 on 3.5): its module gives it
 * ({@link OperationJsonImports}).
 */
@AutoConfiguration(after = ModelgateIdempotencyAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "modelgate.idempotency.enabled", matchIfMissing = true)
@ConditionalOnBean(IdempotencyCoordinator.class)
@Import(OperationJsonImports.class)
public class ModelgateIdempotencyOperationsAutoConfiguration {

	/**
	 * Calls that do not say otherwise keep their outcome for {@code ttl} and hold a lease of
	 * {@code lease-ttl}, as requests do; they do not wait for a running duplicate.
	 */
	@Bean
	@ConditionalOnMissingBean
	IdempotencyTemplate idempotencyTemplate(IdempotencyCoordinator coordinator,
			ModelgateIdempotencyProperties properties, ObjectProvider<IdempotencyListener> listeners) {
		return new IdempotencyTemplate(coordinator, new IdempotencyTemplate.Defaults(properties.getTtl(),
				properties.getLeaseTtl(), Duration.ZERO, FailurePolicy.standard(), properties.getSpentKeyRetention()),
				listeners.orderedStream().toList());
	}

	@Bean
	@ConditionalOnMissingBean
	IdempotentOperationInterceptor idempotentOperationInterceptor(IdempotencyTemplate template, OperationJson json,
			ModelgateIdempotencyProperties properties, BeanFactory beanFactory,
			ObjectProvider<OperationSource> sources) {
		return new IdempotentOperationInterceptor(template, json, properties.getWaitTimeout(), beanFactory,
				sources.orderedStream().toList());
	}

	/**
	 * Static, as a post-processor must be; the interceptor (and with it the store) is only looked up on
	 * the first call of an annotated method.
	 */
	@Bean
	@ConditionalOnMissingBean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static IdempotentOperationPostProcessor idempotentOperationPostProcessor(
			ObjectProvider<IdempotentOperationInterceptor> interceptor, Environment environment) {
		IdempotentOperationPostProcessor postProcessor = new IdempotentOperationPostProcessor(interceptor::getObject);
		// Class proxies unless told otherwise, as Spring Boot's own AOP configuration does.
		postProcessor.setProxyTargetClass(environment.getProperty("spring.aop.proxy-target-class", Boolean.class, true));
		return postProcessor;
	}

}
