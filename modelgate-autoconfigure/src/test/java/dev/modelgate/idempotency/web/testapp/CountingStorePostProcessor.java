package dev.modelgate.idempotency.web.testapp;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.aopalliance.intercept.MethodInterceptor;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;

import dev.modelgate.idempotency.core.IdempotencyStore;

/**
 * Proxies the real store (keeping its class, so beans that need the concrete store still get it) so
 * that tests can count how many state-machine calls reached it.
 */
public class CountingStorePostProcessor implements BeanPostProcessor {

	public static final AtomicInteger CALLS = new AtomicInteger();

	/** Calls of the stream methods that reached the store, by method name. */
	public static final Map<String, AtomicInteger> STREAM_CALLS = new ConcurrentHashMap<>();

	private static final Set<String> TRANSITIONS = Set.of("begin", "renew", "complete", "release");

	private static final Set<String> STREAM_METHODS = Set.of("openStream", "appendEvents", "completeStream",
			"readStream");

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (!(bean instanceof IdempotencyStore)) {
			return bean;
		}
		ProxyFactory proxy = new ProxyFactory(bean);
		proxy.setProxyTargetClass(true);
		proxy.addAdvice((MethodInterceptor) (invocation) -> {
			String method = invocation.getMethod().getName();
			if (TRANSITIONS.contains(method)) {
				CALLS.incrementAndGet();
			}
			if (STREAM_METHODS.contains(method)) {
				STREAM_CALLS.computeIfAbsent(method, (name) -> new AtomicInteger()).incrementAndGet();
			}
			return invocation.proceed();
		});
		return proxy.getProxy(bean.getClass().getClassLoader());
	}

}
