package dev.modelgate.idempotency.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.amqp.rabbit.config.RabbitListenerConfigUtils;
import org.springframework.amqp.rabbit.listener.RabbitListenerEndpointRegistry;
import org.springframework.amqp.rabbit.retry.MessageRecoverer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.kafka.listener.RecordInterceptor;

import dev.modelgate.idempotency.IdempotentListener;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.messaging.IdempotentListenerPostProcessor;
import dev.modelgate.idempotency.messaging.IdempotentListenerSource;
import dev.modelgate.idempotency.messaging.amqp.RabbitListenerIdempotency;
import dev.modelgate.idempotency.messaging.kafka.KafkaListenerIdempotency;
import dev.modelgate.idempotency.operation.IdempotentOperationInterceptor;

/**
 * {@code @IdempotentListener} on Spring Kafka and Spring AMQP listeners: the {@code @IdempotentOperation}
 * interceptor reads the annotation, and each broker present gets its hook (the record or message a
 * listener thread handles) and its refusals (Kafka: final refusals not retryable in the application's
 * {@code DefaultErrorHandler}; RabbitMQ: requeued after a delay, or dead-lettered through the
 * application's {@code MessageRecoverer}). Listeners that cannot be annotated are configured by
 * listener id ({@code modelgate.idempotency.listeners.<id>.*}). The same on both Spring Boot lines: the
 * broker auto-configurations it follows are named for each (Spring Boot 4, then 3.5).
 */
@AutoConfiguration(after = ModelgateIdempotencyOperationsAutoConfiguration.class,
		afterName = { "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration",
				"org.springframework.boot.amqp.autoconfigure.RabbitAutoConfiguration",
				"org.springframework.boot.autoconfigure.kafka.KafkaAutoConfiguration",
				"org.springframework.boot.autoconfigure.amqp.RabbitAutoConfiguration" })
@ConditionalOnClass(IdempotentListenerSource.class)
@ConditionalOnBooleanProperty(name = "modelgate.idempotency.enabled", matchIfMissing = true)
@ConditionalOnBean(IdempotencyTemplate.class)
public class ModelgateIdempotencyListenersAutoConfiguration {

	/**
	 * Static, since the post-processor needs it to find the listeners to advise; it binds
	 * {@code modelgate.idempotency.listeners} itself for the same reason.
	 */
	@Bean
	@ConditionalOnMissingBean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static IdempotentListenerSource idempotentListenerSource(Environment environment) {
		Map<String, IdempotentListener> byListenerId = new LinkedHashMap<>();
		Binder.get(environment)
			.bind("modelgate.idempotency.listeners",
					Bindable.mapOf(String.class, ModelgateIdempotencyProperties.Listener.class))
			.orElse(Map.of())
			.forEach((id, listener) -> byListenerId.put(id,
					IdempotentListenerSource.settings(listener.getKeyHeader(), listener.getKey(), listener.isMessageId(),
							listener.getScope(), listener.getTtl(), listener.getLeaseTtl())));
		return new IdempotentListenerSource(byListenerId);
	}

	/** Static, as a post-processor must be; the interceptor is only looked up on the first message. */
	@Bean
	@ConditionalOnMissingBean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static IdempotentListenerPostProcessor idempotentListenerPostProcessor(
			ObjectProvider<IdempotentOperationInterceptor> interceptor, IdempotentListenerSource source,
			Environment environment) {
		IdempotentListenerPostProcessor postProcessor = new IdempotentListenerPostProcessor(interceptor::getObject,
				source);
		postProcessor.setProxyTargetClass(environment.getProperty("spring.aop.proxy-target-class", Boolean.class, true));
		return postProcessor;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(RecordInterceptor.class)
	static class KafkaListeners {

		@Bean
		@ConditionalOnMissingBean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static KafkaListenerIdempotency kafkaListenerIdempotency() {
			return new KafkaListenerIdempotency();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(RabbitListenerEndpointRegistry.class)
	static class RabbitListeners {

		/**
		 * Static, as a post-processor must be: it gives each container factory the hook when the factory
		 * is created, before any container exists.
		 */
		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean(name = RabbitListenerConfigUtils.RABBIT_LISTENER_ENDPOINT_REGISTRY_BEAN_NAME)
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static RabbitListenerIdempotency rabbitListenerIdempotency(
				ObjectProvider<ModelgateIdempotencyProperties> properties, ObjectProvider<MessageRecoverer> recoverer) {
			return new RabbitListenerIdempotency(() -> properties.getObject().getListenerRequeueDelay(),
					recoverer::getIfUnique);
		}

	}

}
