package dev.modelgate.idempotency.core.internal;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.core.StoredOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The blocking store as a non-blocking one: direct calls when the store never waits, else a bounded
 * pool whose full queue and whose slow calls fail the future with a store failure.
 */
class BlockingIdempotencyStoreAdapterTests {

	private static final Duration LEASE = Duration.ofSeconds(30);

	@Test
	void callsStoreThatNeverWaitsOnTheCallersThread() throws Exception {
		ThreadRecordingStore store = new ThreadRecordingStore(Duration.ZERO);
		try (BlockingIdempotencyStoreAdapter adapter = BlockingIdempotencyStoreAdapter.create(store,
				Duration.ofSeconds(2), 1, 1)) {
			CompletableFuture<BeginResult> begun = adapter.begin("s", "f", "t", LEASE);
			assertThat(begun).isDone();
			assertThat(begun.get().outcome()).isEqualTo(BeginResult.Outcome.ACQUIRED);
			assertThat(store.callerThread.get()).isSameAs(Thread.currentThread());
			assertThat(adapter.isDirect()).isTrue();
		}
	}

	@Test
	void memoryStoreKeepsItsStateMachineThroughTheAdapter() throws Exception {
		try (BlockingIdempotencyStoreAdapter adapter = BlockingIdempotencyStoreAdapter
			.create(new InMemoryIdempotencyStore(), Duration.ofSeconds(2), 1, 1)) {
			assertThat(adapter.begin("s", "f", "t1", LEASE).get().outcome()).isEqualTo(BeginResult.Outcome.ACQUIRED);
			assertThat(adapter.begin("s", "f", "t2", LEASE).get().outcome())
				.isEqualTo(BeginResult.Outcome.IN_PROGRESS);
			assertThat(adapter.begin("s", "other", "t2", LEASE).get().outcome())
				.isEqualTo(BeginResult.Outcome.MISMATCH);
			assertThat(adapter.complete("s", "t1", new StoredOutcome(StoredOutcome.Kind.RESPONSE, new byte[] { 1 }),
					Duration.ofMinutes(1))
				.get()).isTrue();
			assertThat(adapter.begin("s", "f", "t3", LEASE).get().outcome()).isEqualTo(BeginResult.Outcome.COMPLETED);
		}
	}

	@Test
	void callsStoreThatMayWaitOnAPoolThread() throws Exception {
		ThreadRecordingStore store = new ThreadRecordingStore(null);
		try (BlockingIdempotencyStoreAdapter adapter = BlockingIdempotencyStoreAdapter.create(store,
				Duration.ofSeconds(2), 2, 4)) {
			assertThat(adapter.begin("s", "f", "t", LEASE).get(5, TimeUnit.SECONDS).outcome())
				.isEqualTo(BeginResult.Outcome.ACQUIRED);
			assertThat(store.callerThread.get()).isNotSameAs(Thread.currentThread());
			assertThat(store.callerThread.get().getName()).startsWith("modelgate-idempotency-async-store-");
		}
	}

	@Test
	void fullQueueFailsTheCallAtOnceWithAStoreFailure() throws Exception {
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch unblock = new CountDownLatch(1);
		BlockingStore store = new BlockingStore(entered, unblock);
		try (BlockingIdempotencyStoreAdapter adapter = BlockingIdempotencyStoreAdapter.create(store,
				Duration.ofSeconds(30), 1, 1)) {
			CompletableFuture<BeginResult> running = adapter.begin("a", "f", "t", LEASE);
			assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
			CompletableFuture<BeginResult> queued = adapter.begin("b", "f", "t", LEASE);
			CompletableFuture<BeginResult> refused = adapter.begin("c", "f", "t", LEASE);
			assertThat(refused).isCompletedExceptionally();
			assertThatThrownBy(refused::get).isInstanceOf(ExecutionException.class)
				.cause()
				.isInstanceOf(IdempotencyStoreException.class)
				.hasMessageContaining("could not be started");
			unblock.countDown();
			assertThat(running.get(5, TimeUnit.SECONDS).outcome()).isEqualTo(BeginResult.Outcome.ACQUIRED);
			assertThat(queued.get(5, TimeUnit.SECONDS).outcome()).isEqualTo(BeginResult.Outcome.ACQUIRED);
			assertThat(store.calls).containsExactly("a", "b");
		}
	}

	@Test
	void callSlowerThanTheOperationTimeoutFailsWithAStoreFailureAndIsInterrupted() throws Exception {
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch never = new CountDownLatch(1);
		BlockingStore store = new BlockingStore(entered, never);
		try (BlockingIdempotencyStoreAdapter adapter = BlockingIdempotencyStoreAdapter.create(store,
				Duration.ofMillis(200), 1, 1)) {
			CompletableFuture<BeginResult> slow = adapter.begin("a", "f", "t", LEASE);
			assertThatThrownBy(() -> slow.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
				.cause()
				.isInstanceOf(IdempotencyStoreException.class)
				.hasMessageContaining("did not answer within");
			assertThat(store.interrupted.await(5, TimeUnit.SECONDS)).isTrue();
		}
	}

	@Test
	void storeFailureReachesTheFutureUnchangedAndOtherFailuresBecomeStoreFailures() {
		IdempotencyStoreException down = new IdempotencyStoreException("down");
		FailingStore failing = new FailingStore(down);
		try (BlockingIdempotencyStoreAdapter adapter = BlockingIdempotencyStoreAdapter.create(failing,
				Duration.ofSeconds(2), 1, 1)) {
			assertThatThrownBy(() -> adapter.begin("s", "f", "t", LEASE).get(5, TimeUnit.SECONDS))
				.cause()
				.isSameAs(down);
			failing.failure = new IllegalStateException("bug");
			assertThatThrownBy(() -> adapter.release("s", "t").get(5, TimeUnit.SECONDS)).cause()
				.isInstanceOf(IdempotencyStoreException.class)
				.hasMessage("release failed")
				.hasCauseInstanceOf(IllegalStateException.class);
		}
	}

	@Test
	void storeWithoutStreamsSaysSoInsteadOfFailingAsAStore() {
		try (BlockingIdempotencyStoreAdapter adapter = BlockingIdempotencyStoreAdapter
			.create(new ThreadRecordingStore(Duration.ZERO), Duration.ofSeconds(2), 1, 1)) {
			assertThatThrownBy(() -> adapter.openStream("s", "t", new byte[0]).get()).cause()
				.isInstanceOf(UnsupportedOperationException.class);
		}
	}

	/** Answers ACQUIRED and records the thread that asked. */
	private static class ThreadRecordingStore extends AnsweringStore {

		final AtomicReference<Thread> callerThread = new AtomicReference<>();

		private final @Nullable Duration limit;

		ThreadRecordingStore(@Nullable Duration limit) {
			this.limit = limit;
		}

		@Override
		public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			this.callerThread.set(Thread.currentThread());
			return BeginResult.acquired();
		}

		@Override
		public @Nullable Duration callTimeLimit() {
			return this.limit;
		}

	}

	/** Blocks every begin until released, like a store whose server hangs. */
	private static class BlockingStore extends AnsweringStore {

		final List<String> calls = new ArrayList<>();

		final CountDownLatch interrupted = new CountDownLatch(1);

		private final CountDownLatch entered;

		private final CountDownLatch unblock;

		BlockingStore(CountDownLatch entered, CountDownLatch unblock) {
			this.entered = entered;
			this.unblock = unblock;
		}

		@Override
		public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			synchronized (this.calls) {
				this.calls.add(scope);
			}
			this.entered.countDown();
			try {
				this.unblock.await();
			}
			catch (InterruptedException ex) {
				this.interrupted.countDown();
				throw new IdempotencyStoreException("interrupted", ex);
			}
			return BeginResult.acquired();
		}

	}

	private static class FailingStore extends AnsweringStore {

		volatile RuntimeException failure;

		FailingStore(RuntimeException failure) {
			this.failure = failure;
		}

		@Override
		public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			throw this.failure;
		}

		@Override
		public boolean release(String scope, String token) {
			throw this.failure;
		}

	}

	private abstract static class AnsweringStore implements IdempotencyStore {

		@Override
		public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			return BeginResult.acquired();
		}

		@Override
		public boolean renew(String scope, String token, Duration leaseTtl) {
			return true;
		}

		@Override
		public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
			return true;
		}

		@Override
		public boolean release(String scope, String token) {
			return true;
		}

	}

}
