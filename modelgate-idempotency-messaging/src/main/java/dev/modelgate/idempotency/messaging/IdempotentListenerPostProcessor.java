package dev.modelgate.idempotency.messaging;

import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;

import org.springframework.core.Ordered;

import dev.modelgate.idempotency.IdempotentListener;
import dev.modelgate.idempotency.operation.IdempotentOperationPostProcessor;

/**
 * Proxies beans with {@link IdempotentListener @IdempotentListener} methods, in front of their other
 * advice (so outside {@code @Transactional}: the transactional inbox). It runs just before Spring
 * Kafka's and Spring AMQP's listener annotation post-processors (both ordered last), so that the
 * endpoints they register call the proxy, not the bean.
 */
@SuppressWarnings("serial")
public class IdempotentListenerPostProcessor extends IdempotentOperationPostProcessor {

	/** @param interceptor supplies the {@code @IdempotentOperation} interceptor on the first call */
	public IdempotentListenerPostProcessor(Supplier<? extends MethodInterceptor> interceptor) {
		super(() -> new IdempotentListenerInterceptor(interceptor.get()), IdempotentListener.class);
		setOrder(Ordered.LOWEST_PRECEDENCE - 1);
	}

}
