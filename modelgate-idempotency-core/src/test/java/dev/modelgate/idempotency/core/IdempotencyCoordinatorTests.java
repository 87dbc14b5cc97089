package dev.modelgate.idempotency.core;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.IdempotencyCoordinator.Attempt;
import dev.modelgate.idempotency.core.Lease;
import dev.modelgate.idempotency.core.internal.Hashing;
import dev.modelgate.idempotency.core.internal.TimeBoundedIdempotencyStore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The coordinator on a real in-memory store with real threads: heartbeats keep a lease alive, a lease
 * taken over is reported lost, WAIT replays or gives up, and a hung store is cut off.
 */
class IdempotencyCoordinatorTests {

	private static final Duration SHORT_LEASE = Duration.ofMillis(300);

	private static final Duration LONG = Duration.ofMinutes(5);

	private static final Duration GENEROUS = Duration.ofSeconds(10);

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private final String scope = Hashing.sha256().field(UUID.randomUUID().toString()).hex();

	private IdempotencyCoordinator coordinator;

	@AfterEach
	void stopThreads() {
		if (this.coordinator != null) {
			this.coordinator.close();
		}
		this.threads.shutdownNow();
	}

	@Test
	void heartbeatKeepsShortLeaseAliveWhileWorkRuns() {
		MutableClock clock = new MutableClock();
		CountingStore store = new CountingStore(clock);
		this.coordinator = IdempotencyCoordinator.create(store, Duration.ofSeconds(2));
		Attempt holder = this.coordinator.begin(this.scope, "fp", SHORT_LEASE, Duration.ZERO);
		assertThat(holder.outcome()).isEqualTo(Outcome.ACQUIRED);
		// Four times most of a lease on the store's clock, each step after a renewal: without the
		// renewals the record would have expired three leases ago.
		for (int step = 0; step < 4; step++) {
			int renewals = store.renewals.get();
			await().atMost(GENEROUS).until(() -> store.renewals.get() > renewals);
			clock.advance(SHORT_LEASE.multipliedBy(4).dividedBy(5));
		}
		Attempt duplicate = this.coordinator.begin(this.scope, "fp", SHORT_LEASE, Duration.ZERO);
		assertThat(duplicate.outcome()).isEqualTo(Outcome.IN_PROGRESS);
		assertThat(duplicate.lease()).isNull();
		assertThat(holder.lease().isLost()).isFalse();
		assertThat(holder.lease().complete(response("done"), LONG)).isTrue();
	}

	@Test
	void leasesAreCountedAsHeldUntilCompletedReleasedOrAbandoned() {
		this.coordinator = IdempotencyCoordinator.create(new InMemoryIdempotencyStore(), Duration.ofSeconds(2));
		Lease completed = this.coordinator.begin(this.scope, "fp", LONG, Duration.ZERO).lease();
		Lease released = this.coordinator.begin(this.scope + "-r", "fp", LONG, Duration.ZERO).lease();
		Lease abandoned = this.coordinator.begin(this.scope + "-a", "fp", LONG, Duration.ZERO).lease();
		assertThat(this.coordinator.begin(this.scope, "fp", LONG, Duration.ZERO).lease()).isNull();
		assertThat(this.coordinator.getLeasesHeld()).isEqualTo(3);
		completed.complete(response("done"), LONG);
		completed.complete(response("again"), LONG);
		assertThat(this.coordinator.getLeasesHeld()).isEqualTo(2);
		released.release();
		abandoned.abandon();
		assertThat(this.coordinator.getLeasesHeld()).isZero();
	}

	@Test
	void decoratorWrapsTheBoundedStoreTheCoordinatorCalls() {
		List<String> calls = new CopyOnWriteArrayList<>();
		this.coordinator = IdempotencyCoordinator.create(new UnboundedStore(), Duration.ofSeconds(2),
				(bounded) -> new RecordingStore(bounded, calls));
		assertThat(this.coordinator.getStore()).isInstanceOf(RecordingStore.class);
		this.coordinator.begin(this.scope, "fp", LONG, Duration.ZERO).lease().release();
		assertThat(calls).containsExactly("begin", "release");
		assertThat(((RecordingStore) this.coordinator.getStore()).delegate)
			.isInstanceOf(TimeBoundedIdempotencyStore.class);
	}

	@Test
	void leaseExpiresOnceAbandoned() {
		this.coordinator = IdempotencyCoordinator.create(new InMemoryIdempotencyStore(), Duration.ofSeconds(2));
		Attempt holder = this.coordinator.begin(this.scope, "fp", SHORT_LEASE, Duration.ZERO);
		holder.lease().abandon();
		// A heartbeat that went on after the abandon would keep the record in progress for good.
		Attempt retry = await().atMost(GENEROUS)
			.until(() -> this.coordinator.begin(this.scope, "fp", SHORT_LEASE, Duration.ZERO),
					(attempt) -> attempt.outcome() == Outcome.ACQUIRED);
		retry.lease().release();
	}

	@Test
	void leaseTakenOverIsReportedLostAndCannotOverwriteTheNewHolder() throws InterruptedException {
		MutableClock clock = new MutableClock();
		InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock);
		this.coordinator = IdempotencyCoordinator.create(store, Duration.ofSeconds(2));
		Attempt first = this.coordinator.begin(this.scope, "fp", SHORT_LEASE, Duration.ZERO);
		assertThat(first.outcome()).isEqualTo(Outcome.ACQUIRED);
		// The first holder stalls past its lease (as in a long GC pause) and a retry takes over.
		clock.advance(Duration.ofHours(1));
		Attempt second = this.coordinator.begin(this.scope, "fp", LONG, Duration.ZERO);
		assertThat(second.outcome()).isEqualTo(Outcome.ACQUIRED);
		awaitLost(first.lease());
		assertThat(first.lease().complete(response("stale"), LONG)).isFalse();
		assertThat(first.lease().release()).isFalse();
		assertThat(second.lease().isLost()).isFalse();
		assertThat(second.lease().complete(response("fresh"), LONG)).isTrue();
		BeginResult replay = store.begin(this.scope, "fp", LeaseTokens.next(), LONG);
		assertThat(replay.outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(replay.stored()).isEqualTo(response("fresh"));
	}

	@Test
	void waitReplaysOnceTheHolderCompletesWithinTheWait() throws Exception {
		CountingStore store = new CountingStore(Clock.systemUTC());
		this.coordinator = IdempotencyCoordinator.create(store, Duration.ofSeconds(2));
		Attempt holder = this.coordinator.begin(this.scope, "fp", LONG, Duration.ZERO);
		Future<Attempt> waiter = this.threads
			.submit(() -> this.coordinator.begin(this.scope, "fp", LONG, Duration.ofSeconds(30)));
		awaitAskedAgainAfterInProgress(store);
		assertThat(waiter).as("the duplicate waits while the holder runs").isNotDone();
		assertThat(holder.lease().complete(response("first"), LONG)).isTrue();
		Attempt duplicate = waiter.get(GENEROUS.toSeconds(), TimeUnit.SECONDS);
		assertThat(duplicate.outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(duplicate.waited()).isTrue();
		assertThat(duplicate.lease()).isNull();
		assertThat(duplicate.result().stored()).isEqualTo(response("first"));
	}

	@Test
	void waitAcquiresWhenTheHolderReleasesWithinTheWait() throws Exception {
		CountingStore store = new CountingStore(Clock.systemUTC());
		this.coordinator = IdempotencyCoordinator.create(store, Duration.ofSeconds(2));
		Attempt holder = this.coordinator.begin(this.scope, "fp", LONG, Duration.ZERO);
		Future<Attempt> waiter = this.threads
			.submit(() -> this.coordinator.begin(this.scope, "fp", LONG, Duration.ofSeconds(30)));
		awaitAskedAgainAfterInProgress(store);
		assertThat(waiter).as("the duplicate waits while the holder runs").isNotDone();
		assertThat(holder.lease().release()).isTrue();
		Attempt retry = waiter.get(GENEROUS.toSeconds(), TimeUnit.SECONDS);
		assertThat(retry.outcome()).isEqualTo(Outcome.ACQUIRED);
		assertThat(retry.lease()).isNotNull();
		retry.lease().release();
	}

	@Test
	void waitGivesUpAfterTheTimeoutWithInProgress() throws Exception {
		this.coordinator = IdempotencyCoordinator.create(new InMemoryIdempotencyStore(), Duration.ofSeconds(2));
		Attempt holder = this.coordinator.begin(this.scope, "fp", LONG, Duration.ZERO);
		Duration wait = Duration.ofMillis(500);
		long started = System.nanoTime();
		Future<Attempt> waiter = this.threads.submit(() -> this.coordinator.begin(this.scope, "fp", LONG, wait));
		Attempt duplicate = waiter.get(GENEROUS.toSeconds(), TimeUnit.SECONDS);
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(wait);
		assertThat(duplicate.outcome()).isEqualTo(Outcome.IN_PROGRESS);
		assertThat(duplicate.waited()).isTrue();
		assertThat(duplicate.lease()).isNull();
		holder.lease().release();
	}

	@Test
	void waitDoesNotWaitForAKeyReusedWithAnotherRequest() {
		this.coordinator = IdempotencyCoordinator.create(new InMemoryIdempotencyStore(), Duration.ofSeconds(2));
		Attempt holder = this.coordinator.begin(this.scope, "fp", LONG, Duration.ZERO);
		Attempt other = assertTimeoutPreemptively(GENEROUS,
				() -> this.coordinator.begin(this.scope, "other", LONG, Duration.ofMinutes(1)));
		assertThat(other.outcome()).isEqualTo(Outcome.MISMATCH);
		assertThat(other.waited()).isFalse();
		holder.lease().release();
	}

	@Test
	void timeBoundedStoreTurnsHungCallIntoStoreFailure() throws InterruptedException {
		CountDownLatch interrupted = new CountDownLatch(1);
		IdempotencyStore bounded = new TimeBoundedIdempotencyStore(new HangingStore(interrupted), this.threads,
				Duration.ofMillis(200));
		assertTimeoutPreemptively(GENEROUS,
				() -> assertThatExceptionOfType(IdempotencyStoreException.class)
					.isThrownBy(() -> bounded.begin(this.scope, "fp", "token", LONG))
					.withMessageContaining("begin"));
		assertThat(interrupted.await(GENEROUS.toSeconds(), TimeUnit.SECONDS))
			.as("the abandoned call is interrupted")
			.isTrue();
	}

	@Test
	void coordinatorBoundsEveryStoreCallByTheOperationTimeout() {
		this.coordinator = IdempotencyCoordinator.create(new HangingStore(new CountDownLatch(1)),
				Duration.ofMillis(200));
		assertTimeoutPreemptively(GENEROUS, () -> assertThatExceptionOfType(IdempotencyStoreException.class)
			.isThrownBy(() -> this.coordinator.begin(this.scope, "fp", LONG, Duration.ZERO)));
	}

	@Test
	void timeBoundedStoreReportsDelegateFailureAsStoreFailure() {
		IllegalStateException failure = new IllegalStateException("connection reset");
		IdempotencyStore failing = new InMemoryIdempotencyStore() {

			@Override
			public boolean release(String scope, String token) {
				throw failure;
			}

		};
		IdempotencyStore bounded = new TimeBoundedIdempotencyStore(failing, this.threads, Duration.ofSeconds(2));
		assertThatExceptionOfType(IdempotencyStoreException.class).isThrownBy(() -> bounded.release(this.scope, "t"))
			.withCause(failure);
	}

	@Test
	void timeBoundedStorePassesAnswersThrough() {
		IdempotencyStore bounded = new TimeBoundedIdempotencyStore(new InMemoryIdempotencyStore(), this.threads,
				Duration.ofSeconds(2));
		assertThat(bounded.begin(this.scope, "fp", "t1", LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
		assertThat(bounded.renew(this.scope, "t1", LONG)).isTrue();
		assertThat(bounded.renew(this.scope, "t2", LONG)).isFalse();
		assertThat(bounded.complete(this.scope, "t1", response("r"), LONG)).isTrue();
		assertThat(bounded.begin(this.scope, "fp", "t3", LONG).stored()).isEqualTo(response("r"));
	}

	@Test
	void leaseIsBoundToTheCurrentThreadOnlyWhileBound() {
		this.coordinator = IdempotencyCoordinator.create(new InMemoryIdempotencyStore(), Duration.ofSeconds(2));
		Lease lease = this.coordinator.begin(this.scope, "fp", LONG, Duration.ZERO).lease();
		assertThat(IdempotencyContext.current()).isEmpty();
		try (IdempotencyContext.Binding binding = lease.bindToCurrentThread()) {
			assertThat(IdempotencyContext.current()).hasValueSatisfying((held) -> {
				assertThat(held.scope()).isEqualTo(this.scope);
				assertThat(held.token()).matches("[0-9a-f]{32}");
			});
		}
		assertThat(IdempotencyContext.current()).isEmpty();
		lease.release();
	}

	@Test
	void closeStopsTheCoordinatorsOwnThreadsOnly() {
		ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor();
		try {
			new IdempotencyCoordinator(new InMemoryIdempotencyStore(), heartbeats).close();
			assertThat(heartbeats.isShutdown()).isFalse();
		}
		finally {
			heartbeats.shutdownNow();
		}
	}

	private void awaitLost(Lease lease) {
		await("a renewal after the takeover marks the lease lost").atMost(GENEROUS).until(lease::isLost);
	}

	/** The duplicate was answered in progress and asked again: it is in its wait, not gone. */
	private static void awaitAskedAgainAfterInProgress(CountingStore store) {
		await().atMost(GENEROUS).until(() -> store.inProgressAnswers.get() >= 2);
	}

	private static StoredOutcome response(String body) {
		return new StoredOutcome(StoredOutcome.Kind.VALUE, body.getBytes(StandardCharsets.UTF_8));
	}

	/** A clock the test moves by hand, read from the heartbeat thread too. */
	private static final class MutableClock extends Clock {

		private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2030-01-01T00:00:00Z"));

		void advance(Duration duration) {
			this.now.updateAndGet((instant) -> instant.plus(duration));
		}

		@Override
		public Instant instant() {
			return this.now.get();
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			throw new UnsupportedOperationException();
		}

	}

	/** A store whose begin never answers in time (a server that accepted the connection and went silent). */
	private static final class HangingStore extends InMemoryIdempotencyStore {

		private final CountDownLatch interrupted;

		/** Unlike the memory store it extends, this one can hang, so the coordinator must bound it. */
		@Override
		public Duration callTimeLimit() {
			return null;
		}

		HangingStore(CountDownLatch interrupted) {
			this.interrupted = interrupted;
		}

		@Override
		public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			try {
				new CountDownLatch(1).await();
			}
			catch (InterruptedException ex) {
				this.interrupted.countDown();
				Thread.currentThread().interrupt();
			}
			return BeginResult.acquired();
		}

	}

	/** Notes the name of each transition, then passes it on. */
	/** The memory store, counting its renewals and the duplicates it answered in progress. */
	private static final class CountingStore extends InMemoryIdempotencyStore {

		private final AtomicInteger renewals = new AtomicInteger();

		private final AtomicInteger inProgressAnswers = new AtomicInteger();

		CountingStore(Clock clock) {
			super(clock);
		}

		@Override
		public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			BeginResult result = super.begin(scope, fingerprint, token, leaseTtl);
			if (result.outcome() == Outcome.IN_PROGRESS) {
				this.inProgressAnswers.incrementAndGet();
			}
			return result;
		}

		@Override
		public boolean renew(String scope, String token, Duration leaseTtl) {
			boolean renewed = super.renew(scope, token, leaseTtl);
			// Counted once done, so that a test moving the clock on a count moves it after the renewal.
			this.renewals.incrementAndGet();
			return renewed;
		}

	}

	/** A store that, like most, does not bound its own calls. */
	private static final class UnboundedStore extends InMemoryIdempotencyStore {

		@Override
		public Duration callTimeLimit() {
			return null;
		}

	}

	private static final class RecordingStore implements IdempotencyStore {

		private final IdempotencyStore delegate;

		private final List<String> calls;

		RecordingStore(IdempotencyStore delegate, List<String> calls) {
			this.delegate = delegate;
			this.calls = calls;
		}

		@Override
		public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			this.calls.add("begin");
			return this.delegate.begin(scope, fingerprint, token, leaseTtl);
		}

		@Override
		public boolean renew(String scope, String token, Duration leaseTtl) {
			this.calls.add("renew");
			return this.delegate.renew(scope, token, leaseTtl);
		}

		@Override
		public boolean complete(String scope, String token, StoredOutcome response, Duration ttl) {
			this.calls.add("complete");
			return this.delegate.complete(scope, token, response, ttl);
		}

		@Override
		public boolean release(String scope, String token) {
			this.calls.add("release");
			return this.delegate.release(scope, token);
		}

	}

}
