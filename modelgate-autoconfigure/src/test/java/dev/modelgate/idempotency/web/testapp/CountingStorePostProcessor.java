package dev.modelgate.idempotency.web.testapp;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.beans.factory.config.BeanPostProcessor;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.StoredResponse;

/** Wraps the real store so that tests can count how many calls reached it. */
public class CountingStorePostProcessor implements BeanPostProcessor {

	public static final AtomicInteger CALLS = new AtomicInteger();

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof IdempotencyStore store) {
			return new Counting(store);
		}
		return bean;
	}

	private record Counting(IdempotencyStore delegate) implements IdempotencyStore {

		@Override
		public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			CALLS.incrementAndGet();
			return this.delegate.begin(scope, fingerprint, token, leaseTtl);
		}

		@Override
		public boolean renew(String scope, String token, Duration leaseTtl) {
			CALLS.incrementAndGet();
			return this.delegate.renew(scope, token, leaseTtl);
		}

		@Override
		public boolean complete(String scope, String token, StoredResponse response, Duration ttl) {
			CALLS.incrementAndGet();
			return this.delegate.complete(scope, token, response, ttl);
		}

		@Override
		public boolean release(String scope, String token) {
			CALLS.incrementAndGet();
			return this.delegate.release(scope, token);
		}

	}

}
