package dev.modelgate.sample.gateway;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.beans.factory.config.BeanPostProcessor;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;

/**
 * Notes each request (by its attempt's token) that the store told its key is in progress, so that a
 * test knows when every duplicate of a burst reached the store while the first request held the key.
 */
class InProgressAnswers implements BeanPostProcessor {

	private static final Set<String> TOKENS = ConcurrentHashMap.newKeySet();

	/** {@return how many requests were answered in progress since the last reset} */
	static int requests() {
		return TOKENS.size();
	}

	static void reset() {
		TOKENS.clear();
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (!(bean instanceof AsyncIdempotencyStore store)) {
			return bean;
		}
		return Proxy.newProxyInstance(AsyncIdempotencyStore.class.getClassLoader(),
				new Class<?>[] { AsyncIdempotencyStore.class }, (proxy, method, args) -> {
					Object result;
					try {
						result = method.invoke(store, args);
					}
					catch (InvocationTargetException ex) {
						throw ex.getCause();
					}
					if (method.getName().equals("begin")) {
						String token = (String) args[2];
						return ((CompletableFuture<?>) result).thenApply((answer) -> {
							if (((BeginResult) answer).outcome() == BeginResult.Outcome.IN_PROGRESS) {
								TOKENS.add(token);
							}
							return answer;
						});
					}
					return result;
				});
	}

}
