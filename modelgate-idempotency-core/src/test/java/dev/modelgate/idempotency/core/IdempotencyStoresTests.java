package dev.modelgate.idempotency.core;

import dev.modelgate.idempotency.core.internal.TimeBoundedIdempotencyStore;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The store kind that metric tags and health details show. */
class IdempotencyStoresTests {

	@Test
	void builtInStoreIsNamedByKindThroughTheTimeBound() {
		ExecutorService executor = Executors.newSingleThreadExecutor();
		try {
			IdempotencyStore bounded = new TimeBoundedIdempotencyStore(new InMemoryIdempotencyStore(), executor,
					Duration.ofSeconds(1));
			assertThat(IdempotencyStores.typeOf(bounded)).isEqualTo("memory");
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void anonymousSubclassIsNamedAfterWhatItExtends() {
		assertThat(IdempotencyStores.typeOf(new InMemoryIdempotencyStore() {
		})).isEqualTo("memory");
	}

	@Test
	void storeOfYourOwnIsNamedByItsClass() {
		assertThat(IdempotencyStores.typeOf(new DynamoStore())).isEqualTo("dynamostore");
	}

	@Test
	void subclassOfABuiltInStoreKeepsItsKind() {
		assertThat(new TracedMemoryStore().type()).isEqualTo("memory");
	}

	private static final class TracedMemoryStore extends InMemoryIdempotencyStore {

	}

	/** A store of one's own: only its name matters here. */
	private static final class DynamoStore implements IdempotencyStore {

		private final IdempotencyStore delegate = new InMemoryIdempotencyStore();

		@Override
		public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			return this.delegate.begin(scope, fingerprint, token, leaseTtl);
		}

		@Override
		public boolean renew(String scope, String token, Duration leaseTtl) {
			return this.delegate.renew(scope, token, leaseTtl);
		}

		@Override
		public boolean complete(String scope, String token, StoredOutcome outcome, Duration ttl) {
			return this.delegate.complete(scope, token, outcome, ttl);
		}

		@Override
		public boolean release(String scope, String token) {
			return this.delegate.release(scope, token);
		}

	}

}
