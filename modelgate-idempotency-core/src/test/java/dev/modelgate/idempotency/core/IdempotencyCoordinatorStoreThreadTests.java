package dev.modelgate.idempotency.core;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which thread runs a store call: the caller's when the store bounds its own calls within the
 * operation timeout (no hand-off, no thread switch), another one that can be abandoned otherwise.
 */
class IdempotencyCoordinatorStoreThreadTests {

	private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(2);

	@Test
	void storeThatBoundsItsCallsWithinTheTimeoutIsCalledOnTheCallersThread() {
		ThreadRecordingStore store = new ThreadRecordingStore(Duration.ofSeconds(1));
		try (IdempotencyCoordinator coordinator = IdempotencyCoordinator.create(store, OPERATION_TIMEOUT)) {
			coordinator.begin("scope", "fp", Duration.ofSeconds(30), Duration.ZERO).lease().release();
		}
		assertThat(store.beginThread.get()).isSameAs(Thread.currentThread());
	}

	@Test
	void storeWithALongerLimitIsCalledOnAnotherThread() {
		ThreadRecordingStore store = new ThreadRecordingStore(Duration.ofSeconds(60));
		try (IdempotencyCoordinator coordinator = IdempotencyCoordinator.create(store, OPERATION_TIMEOUT)) {
			coordinator.begin("scope", "fp", Duration.ofSeconds(30), Duration.ZERO).lease().release();
		}
		assertThat(store.beginThread.get()).isNotSameAs(Thread.currentThread());
	}

	@Test
	void storeWithoutALimitIsCalledOnAnotherThread() {
		ThreadRecordingStore store = new ThreadRecordingStore(null);
		try (IdempotencyCoordinator coordinator = IdempotencyCoordinator.create(store, OPERATION_TIMEOUT)) {
			coordinator.begin("scope", "fp", Duration.ofSeconds(30), Duration.ZERO).lease().release();
		}
		assertThat(store.beginThread.get()).isNotSameAs(Thread.currentThread());
	}

	private static final class ThreadRecordingStore extends InMemoryIdempotencyStore {

		private final Duration callTimeLimit;

		private final AtomicReference<Thread> beginThread = new AtomicReference<>();

		ThreadRecordingStore(Duration callTimeLimit) {
			this.callTimeLimit = callTimeLimit;
		}

		@Override
		public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			this.beginThread.set(Thread.currentThread());
			return super.begin(scope, fingerprint, token, leaseTtl);
		}

		@Override
		public Duration callTimeLimit() {
			return this.callTimeLimit;
		}

	}

}
