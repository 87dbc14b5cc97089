package dev.modelgate.idempotency.core;

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

	private static final class DynamoStore extends InMemoryIdempotencyStore {

	}

}
