package dev.modelgate.idempotency.messaging;

import java.lang.reflect.Method;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;

import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.core.Ordered;

import dev.modelgate.idempotency.operation.IdempotentOperationPostProcessor;

/**
 * Proxies beans with {@code @IdempotentListener} methods (or listeners configured by id), in front of their other
 * advice (so outside {@code @Transactional}: the transactional inbox). It runs just before Spring
 * Kafka's and Spring AMQP's listener annotation post-processors (both ordered last), so that the
 * endpoints they register call the proxy, not the bean.
 */
@SuppressWarnings("serial")
public class IdempotentListenerPostProcessor extends IdempotentOperationPostProcessor {

	/** @param interceptor supplies the {@code @IdempotentOperation} interceptor on the first call */
	public IdempotentListenerPostProcessor(Supplier<? extends MethodInterceptor> interceptor) {
		this(interceptor, new IdempotentListenerSource());
	}

	/**
	 * @param interceptor supplies the {@code @IdempotentOperation} interceptor on the first call
	 * @param source finds the listeners to advise: annotated, or configured by listener id (the
	 * interceptor must read them with the same source)
	 */
	public IdempotentListenerPostProcessor(Supplier<? extends MethodInterceptor> interceptor,
			IdempotentListenerSource source) {
		super(() -> new IdempotentListenerInterceptor(interceptor.get()), new StaticMethodMatcherPointcut() {
			@Override
			public boolean matches(Method method, Class<?> targetClass) {
				return source.find(AopUtils.getMostSpecificMethod(method, targetClass)) != null;
			}
		});
		setOrder(Ordered.LOWEST_PRECEDENCE - 1);
	}

}
