package dev.modelgate.idempotency.micrometer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.internal.TimeBoundedIdempotencyStore;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Each store call becomes one observation, named and tagged by the default convention, with the
 * store's answer as a low-cardinality value and the scope hash as a high-cardinality one.
 */
class ObservedIdempotencyStoreTests {

	private static final Duration LONG = Duration.ofMinutes(5);

	private final TestObservationRegistry registry = TestObservationRegistry.create();

	@Test
	void beginIsObservedWithItsOutcome() {
		IdempotencyStore store = new ObservedIdempotencyStore(new InMemoryIdempotencyStore(), this.registry, null);
		assertThat(store.begin("scope-1", "fp", "t1", LONG).outcome()).isEqualTo(BeginResult.Outcome.ACQUIRED);
		store.begin("scope-1", "fp", "t2", LONG);

		assertThat(this.registry).hasNumberOfObservationsWithNameEqualTo("modelgate.idempotency.store", 2)
			.hasObservationWithNameEqualTo("modelgate.idempotency.store")
			.that()
			.hasContextualNameEqualTo("idempotency begin")
			.hasLowCardinalityKeyValue("operation", "begin")
			.hasLowCardinalityKeyValue("store", "memory")
			.hasLowCardinalityKeyValue("result", "acquired")
			.hasHighCardinalityKeyValue("modelgate.idempotency.scope", "scope-1")
			.hasBeenStarted()
			.hasBeenStopped();
		assertThat(this.registry).hasAnObservation((observation) -> observation
			.hasLowCardinalityKeyValue("result", "in_progress"));
	}

	@Test
	void everyOperationIsObservedWithItsAnswer() {
		IdempotencyStore store = new ObservedIdempotencyStore(new InMemoryIdempotencyStore(), this.registry, null);
		store.begin("s", "fp", "t", LONG);
		store.renew("s", "t", LONG);
		store.renew("s", "other", LONG);
		store.complete("s", "t", new StoredOutcome(StoredOutcome.Kind.RESPONSE, new byte[0]), LONG);
		store.release("s", "t");
		store.find("s");
		store.find("absent");
		store.delete("s");

		assertThat(this.registry).hasAnObservation((o) -> o.hasContextualNameEqualTo("idempotency renew")
			.hasLowCardinalityKeyValue("result", "ok"))
			.hasAnObservation((o) -> o.hasContextualNameEqualTo("idempotency renew")
				.hasLowCardinalityKeyValue("result", "refused"))
			.hasAnObservation((o) -> o.hasContextualNameEqualTo("idempotency complete")
				.hasLowCardinalityKeyValue("result", "ok"))
			.hasAnObservation((o) -> o.hasContextualNameEqualTo("idempotency release")
				.hasLowCardinalityKeyValue("result", "refused"))
			.hasAnObservation((o) -> o.hasContextualNameEqualTo("idempotency find")
				.hasLowCardinalityKeyValue("result", "found"))
			.hasAnObservation((o) -> o.hasContextualNameEqualTo("idempotency find")
				.hasLowCardinalityKeyValue("result", "absent"))
			.hasAnObservation((o) -> o.hasContextualNameEqualTo("idempotency delete")
				.hasLowCardinalityKeyValue("result", "ok"));
	}

	@Test
	void failureIsObservedAsAnErrorAndRethrown() {
		IdempotencyStore failing = new InMemoryIdempotencyStore() {

			@Override
			public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
				throw new IdempotencyStoreException("down");
			}

		};
		IdempotencyStore store = new ObservedIdempotencyStore(failing, this.registry, null);
		assertThatExceptionOfType(IdempotencyStoreException.class)
			.isThrownBy(() -> store.begin("s", "fp", "t", LONG));
		assertThat(this.registry).hasSingleObservationThat()
			.hasLowCardinalityKeyValue("result", "error")
			.assertThatError()
			.isInstanceOf(IdempotencyStoreException.class);
	}

	@Test
	void resultIsOnlyTaggedOnceTheCallReturned() {
		KeyValue[] whileRunning = new KeyValue[1];
		IdempotencyStore probing = new InMemoryIdempotencyStore() {

			@Override
			public boolean release(String scope, String token) {
				whileRunning[0] = ObservedIdempotencyStoreTests.this.registry.getCurrentObservation()
					.getContextView()
					.getLowCardinalityKeyValue("result");
				return super.release(scope, token);
			}

		};
		new ObservedIdempotencyStore(probing, this.registry, null).release("s", "t");
		assertThat(whileRunning[0]).as("no result tag on the long task timer of a running call").isNull();
		assertThat(this.registry).hasSingleObservationThat().hasLowCardinalityKeyValue("result", "refused");
	}

	@Test
	void storeKindIsNamedThroughTheTimeBound() {
		ExecutorService executor = Executors.newCachedThreadPool();
		try {
			IdempotencyStore bounded = new TimeBoundedIdempotencyStore(new InMemoryIdempotencyStore(), executor,
					Duration.ofSeconds(1));
			new ObservedIdempotencyStore(bounded, this.registry, null).find("s");
			assertThat(this.registry).hasSingleObservationThat().hasLowCardinalityKeyValue("store", "memory");
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void customConventionReplacesTheDefault() {
		IdempotencyStoreObservationConvention convention = new IdempotencyStoreObservationConvention() {

			@Override
			public String getName() {
				return "custom.store";
			}

			@Override
			public KeyValues getLowCardinalityKeyValues(IdempotencyStoreObservationContext context) {
				return KeyValues.of("op", context.getOperation());
			}

		};
		new ObservedIdempotencyStore(new InMemoryIdempotencyStore(), this.registry, convention).find("s");
		assertThat(this.registry).hasSingleObservationThat()
			.hasNameEqualTo("custom.store")
			.hasLowCardinalityKeyValue("op", "find");
	}

}
