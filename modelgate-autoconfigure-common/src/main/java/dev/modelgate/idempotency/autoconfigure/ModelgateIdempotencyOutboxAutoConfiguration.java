package dev.modelgate.idempotency.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.modulith.events.core.EventPublicationRepository;

import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.operation.IdempotentOperationInterceptor;
import dev.modelgate.idempotency.outbox.IdempotentEventListener;
import dev.modelgate.idempotency.outbox.IdempotentEventListenerAdvisor;
import dev.modelgate.idempotency.outbox.IdempotentEventListenerSource;
import dev.modelgate.idempotency.outbox.IncompletePublicationsMetrics;

/**
 * The outbox (module {@code modelgate-idempotency-modulith}): {@code @IdempotentEventListener} methods
 * run through the {@code @IdempotentOperation} interceptor, and, with Spring Modulith's event publication
 * registry and Micrometer, gauges of its incomplete publications. The listeners are advised by the
 * application's auto-proxy creator (Spring Boot's AOP or transaction auto-configuration registers one,
 * and Spring Modulith's completion advice needs it too). The same on both Spring Boot lines: it
 * names no class that differs between them, and only Spring Modulith API that 1.4 and 2.0 share.
 */
@AutoConfiguration(after = ModelgateIdempotencyOperationsAutoConfiguration.class,
		afterName = { "org.springframework.modulith.events.config.EventPublicationAutoConfiguration",
				"org.springframework.modulith.events.jdbc.JdbcEventPublicationAutoConfiguration" })
@ConditionalOnClass(IdempotentEventListener.class)
@ConditionalOnBooleanProperty(name = "modelgate.idempotency.enabled", matchIfMissing = true)
@ConditionalOnBean(IdempotencyTemplate.class)
public class ModelgateIdempotencyOutboxAutoConfiguration {

	/** Static: the interceptor reads the annotation with it, and the post-processor needs neither early. */
	@Bean
	@ConditionalOnMissingBean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static IdempotentEventListenerSource idempotentEventListenerSource() {
		return new IdempotentEventListenerSource();
	}

	/**
	 * Static, as the auto-proxy creator looks advisors up early; the interceptor (and with it the store)
	 * is only looked up on the first event.
	 */
	@Bean
	@ConditionalOnMissingBean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static IdempotentEventListenerAdvisor idempotentEventListenerAdvisor(
			ObjectProvider<IdempotentOperationInterceptor> interceptor) {
		return new IdempotentEventListenerAdvisor(interceptor::getObject);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ MeterRegistry.class, EventPublicationRepository.class })
	@ConditionalOnBean(EventPublicationRepository.class)
	static class PublicationMetrics {

		@Bean
		@ConditionalOnMissingBean
		IncompletePublicationsMetrics incompletePublicationsMetrics(EventPublicationRepository repository) {
			return new IncompletePublicationsMetrics(repository);
		}

	}

}
