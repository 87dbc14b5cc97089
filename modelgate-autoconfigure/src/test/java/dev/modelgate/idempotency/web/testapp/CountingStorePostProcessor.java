package dev.modelgate.idempotency.web.testapp;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.aopalliance.intercept.MethodInterceptor;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStore;

import static org.awaitility.Awaitility.await;

/**
 * Proxies the real store (keeping its class, so beans that need the concrete store still get it) so
 * that tests can count how many state-machine calls reached it.
 */
public class CountingStorePostProcessor implements BeanPostProcessor {

	public static final AtomicInteger CALLS = new AtomicInteger();

	/** How many begins the store answered {@code IN_PROGRESS}: a duplicate that waits asks again and again. */
	public static final AtomicInteger IN_PROGRESS_ANSWERS = new AtomicInteger();

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
			Object result = invocation.proceed();
			if (result instanceof BeginResult begin && begin.outcome() == BeginResult.Outcome.IN_PROGRESS) {
				IN_PROGRESS_ANSWERS.incrementAndGet();
			}
			return result;
		});
		return proxy.getProxy(bean.getClass().getClassLoader());
	}

	/**
	 * Waits until the store has answered {@code IN_PROGRESS} twice more than {@code before}: a duplicate
	 * told its key is in progress asked again, so it is waiting rather than answered.
	 */
	public static void awaitDuplicateWaiting(int before) {
		await("a duplicate asked the store again after an in-progress answer").atMost(Duration.ofSeconds(10))
			.until(() -> IN_PROGRESS_ANSWERS.get() >= before + 2);
	}

}
