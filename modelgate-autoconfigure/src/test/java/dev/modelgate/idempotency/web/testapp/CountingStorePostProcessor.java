package dev.modelgate.idempotency.web.testapp;

import java.util.Set;
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

	private static final Set<String> TRANSITIONS = Set.of("begin", "renew", "complete", "release");

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (!(bean instanceof IdempotencyStore)) {
			return bean;
		}
		ProxyFactory proxy = new ProxyFactory(bean);
		proxy.setProxyTargetClass(true);
		proxy.addAdvice((MethodInterceptor) (invocation) -> {
			if (TRANSITIONS.contains(invocation.getMethod().getName())) {
				CALLS.incrementAndGet();
			}
			return invocation.proceed();
		});
		return proxy.getProxy(bean.getClass().getClassLoader());
	}

}
