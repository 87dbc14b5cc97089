package dev.modelgate.idempotency.messaging;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.modelgate.idempotency.core.FailurePolicy;
import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.operation.IdempotentOperationInterceptor;

/**
 * The beans the auto-configuration gives a listener application, on a store the test chooses (memory
 * unless it declares an {@link IdempotencyStore}).
 */
@Configuration(proxyBeanMethods = false)
public class ListenerTestSupport {

	@Bean
	IdempotencyTemplate idempotencyTemplate(ObjectProvider<IdempotencyStore> store,
			ObjectProvider<IdempotencyListener> listeners) {
		IdempotencyCoordinator coordinator = new IdempotencyCoordinator(
				store.getIfAvailable(InMemoryIdempotencyStore::new), Executors.newSingleThreadScheduledExecutor());
		return new IdempotencyTemplate(coordinator, new IdempotencyTemplate.Defaults(Duration.ofHours(1),
				Duration.ofSeconds(30), Duration.ZERO, FailurePolicy.standard()), listeners.orderedStream().toList());
	}

	@Bean
	IdempotentOperationInterceptor idempotentOperationInterceptor(IdempotencyTemplate template,
			BeanFactory beanFactory) {
		return new IdempotentOperationInterceptor(template, new StringOperationJson(), Duration.ZERO, beanFactory,
				List.of(new IdempotentListenerSource()));
	}

	@Bean
	static IdempotentListenerPostProcessor idempotentListenerPostProcessor(
			ObjectProvider<IdempotentOperationInterceptor> interceptor) {
		IdempotentListenerPostProcessor postProcessor = new IdempotentListenerPostProcessor(interceptor::getObject);
		postProcessor.setProxyTargetClass(true);
		return postProcessor;
	}

}
