package dev.modelgate.idempotency.operation;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.Ordered;
import org.springframework.resilience.annotation.EnableResilientMethods;
import org.springframework.resilience.annotation.Retryable;

import dev.modelgate.idempotency.IdempotentOperation;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyAutoConfiguration;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyOperationsAutoConfiguration;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.core.RecordedFailureException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code @IdempotentOperation} together with Spring Framework's {@code @Retryable}
 * ({@code @EnableResilientMethods}). On the same method the idempotency advice is the outer one: the
 * retries run inside one begin of the key, and only the outcome of the last attempt is recorded. With
 * {@code @Retryable} on a bean that calls the idempotent one, each attempt begins the key again: a
 * failed attempt releases it and the next acquires it.
 */
@Tag("boot")
class IdempotentOperationRetryableTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class,
				ModelgateIdempotencyOperationsAutoConfiguration.class, JacksonAutoConfiguration.class))
		.withPropertyValues("modelgate.idempotency.store=memory")
		.withUserConfiguration(RetryConfiguration.class);

	@Test
	void onTheSameMethodTheRetriesRunInsideOneBeginAndTheResultIsRecordedOnce() {
		this.contextRunner.run((context) -> {
			Payments payments = context.getBean(Payments.class);
			CountingStore store = context.getBean(CountingStore.class);
			Counters counters = context.getBean(Counters.class);
			String key = UUID.randomUUID().toString();
			counters.failuresLeft.set(2);

			assertThat(payments.charge(key)).isEqualTo("charged");
			assertThat(counters.runs).hasValue(3);
			assertThat(store.begins).hasValue(1);
			assertThat(store.size()).isEqualTo(1);

			// A second call with the same key is replayed: it begins once more and finds the result.
			assertThat(payments.charge(key)).isEqualTo("charged");
			assertThat(counters.runs).hasValue(3);
			assertThat(store.begins).hasValue(2);
		});
	}

	@Test
	void anOrderOnEnableResilientMethodsLeavesTheIdempotencyAdviceOuter() {
		this.contextRunner.withUserConfiguration(FirstRetryConfiguration.class).run((context) -> {
			Payments payments = context.getBean(Payments.class);
			CountingStore store = context.getBean(CountingStore.class);
			Counters counters = context.getBean(Counters.class);
			counters.failuresLeft.set(2);

			assertThat(payments.charge(UUID.randomUUID().toString())).isEqualTo("charged");
			assertThat(counters.runs).hasValue(3);
			assertThat(store.begins).hasValue(1);
		});
	}

	@Test
	void onTheSameMethodARecordedFailureIsOnlyTheLastAttempts() {
		this.contextRunner.run((context) -> {
			Payments payments = context.getBean(Payments.class);
			Counters counters = context.getBean(Counters.class);
			String key = UUID.randomUUID().toString();

			// recordOn does not cut the retries short: the failure is recorded once they are exhausted.
			counters.failuresLeft.set(2);
			assertThat(payments.chargeRecordingFailures(key)).isEqualTo("charged");
			assertThat(counters.runs).hasValue(3);

			String other = UUID.randomUUID().toString();
			counters.failuresLeft.set(100);
			assertThatThrownBy(() -> payments.chargeRecordingFailures(other)).satisfies((ex) -> assertThat(
					NestedExceptionUtils.getMostSpecificCause(ex)).isInstanceOf(IllegalStateException.class));
			assertThat(counters.runs).hasValue(6);
			assertThatExceptionOfType(RecordedFailureException.class)
				.isThrownBy(() -> payments.chargeRecordingFailures(other));
			assertThat(counters.runs).hasValue(6);
		});
	}

	@Test
	void onACallingBeanEachAttemptBeginsTheKeyAgain() {
		this.contextRunner.run((context) -> {
			Checkout checkout = context.getBean(Checkout.class);
			CountingStore store = context.getBean(CountingStore.class);
			Counters counters = context.getBean(Counters.class);
			String key = UUID.randomUUID().toString();
			counters.failuresLeft.set(2);

			// Each failed attempt released the key, so the next one acquired it and ran.
			assertThat(checkout.pay(key)).isEqualTo("charged");
			assertThat(counters.runs).hasValue(3);
			assertThat(store.begins).hasValue(3);

			assertThat(checkout.pay(key)).isEqualTo("charged");
			assertThat(counters.runs).hasValue(3);
			assertThat(store.begins).hasValue(4);
		});
	}

	@Test
	void onACallingBeanARecordedFailureIsReplayedToTheRemainingAttempts() {
		this.contextRunner.run((context) -> {
			Checkout checkout = context.getBean(Checkout.class);
			Counters counters = context.getBean(Counters.class);
			String key = UUID.randomUUID().toString();
			counters.failuresLeft.set(1);

			// The first attempt's failure is recorded; the retries get it back and never run the method.
			assertThatThrownBy(() -> checkout.payRecordingFailures(key)).satisfies((ex) -> assertThat(
					NestedExceptionUtils.getMostSpecificCause(ex)).isInstanceOf(RecordedFailureException.class));
			assertThat(counters.runs).hasValue(1);
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableResilientMethods
	static class RetryConfiguration {

		@Bean
		CountingStore countingStore() {
			return new CountingStore();
		}

		@Bean
		Counters counters() {
			return new Counters();
		}

		@Bean
		Payments payments(Counters counters) {
			return new Payments(counters);
		}

		@Bean
		Checkout checkout(Payments payments) {
			return new Checkout(payments);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableResilientMethods(order = Ordered.HIGHEST_PRECEDENCE)
	static class FirstRetryConfiguration {

	}

	/** The memory store, counting how often a key is begun. */
	static class CountingStore extends InMemoryIdempotencyStore {

		final AtomicInteger begins = new AtomicInteger();

		@Override
		public synchronized BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			this.begins.incrementAndGet();
			return super.begin(scope, fingerprint, token, leaseTtl);
		}

	}

	public static class Counters {

		final AtomicInteger runs = new AtomicInteger();

		final AtomicInteger failuresLeft = new AtomicInteger();

		void run() {
			this.runs.incrementAndGet();
			if (this.failuresLeft.getAndDecrement() > 0) {
				throw new IllegalStateException("the payment provider is unavailable");
			}
		}

	}

	/** Both annotations on the same method. */
	public static class Payments {

		private final Counters counters;

		Payments(Counters counters) {
			this.counters = counters;
		}

		@IdempotentOperation(key = "#key")
		@Retryable(maxRetries = 2, delay = 0)
		public String charge(String key) {
			this.counters.run();
			return "charged";
		}

		@IdempotentOperation(key = "#key", recordOn = IllegalStateException.class)
		@Retryable(maxRetries = 2, delay = 0)
		public String chargeRecordingFailures(String key) {
			this.counters.run();
			return "charged";
		}

		@IdempotentOperation(key = "#key")
		public String chargeOnce(String key) {
			this.counters.run();
			return "charged";
		}

		@IdempotentOperation(key = "#key", recordOn = IllegalStateException.class)
		public String chargeOnceRecordingFailures(String key) {
			this.counters.run();
			return "charged";
		}

	}

	/** {@code @Retryable} on the bean that calls the idempotent one. */
	public static class Checkout {

		private final Payments payments;

		Checkout(Payments payments) {
			this.payments = payments;
		}

		@Retryable(maxRetries = 2, delay = 0)
		public String pay(String key) {
			return this.payments.chargeOnce(key);
		}

		@Retryable(maxRetries = 2, delay = 0)
		public String payRecordingFailures(String key) {
			return this.payments.chargeOnceRecordingFailures(key);
		}

	}

}
