package dev.modelgate.idempotency.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.modelgate.idempotency.core.Delayer;
import dev.modelgate.idempotency.core.internal.AsyncSettlement;
import dev.modelgate.idempotency.core.internal.DecisionReporter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** The asynchronous coordinator and what it hands out: the same state machine, without blocking. */
class AsyncIdempotencyCoordinatorTests {

	private static final Duration LONG = Duration.ofMinutes(1);

	private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();

	private final InMemoryIdempotencyStore memory = new InMemoryIdempotencyStore();

	private final CountingStore store = new CountingStore(this.memory);

	private final AsyncIdempotencyCoordinator coordinator = new AsyncIdempotencyCoordinator(this.store,
			Delayer.of(this.timers));

	private final List<IdempotencyDecision> decisions = new ArrayList<>();

	private final DecisionReporter reporter = DecisionReporter.of(List.of(new IdempotencyListener() {

		@Override
		public void onDecision(IdempotencyDecision decision) {
			AsyncIdempotencyCoordinatorTests.this.decisions.add(decision);
		}

	}));

	@AfterEach
	void stopTimers() {
		this.timers.shutdownNow();
	}

	@Test
	void firstAttemptAcquiresAndItsRecordedOutcomeIsWhatADuplicateGets() throws Exception {
		AsyncIdempotencyCoordinator.Attempt first = this.coordinator.begin("s", "fp", LONG, Duration.ZERO)
			.get(5, TimeUnit.SECONDS);
		assertThat(first.outcome()).isEqualTo(BeginResult.Outcome.ACQUIRED);
		AsyncSettlement settlement = new AsyncSettlement(first.lease(), this.reporter, "POST", "/r", LONG);
		assertThat(settlement.record(new StoredOutcome(StoredOutcome.Kind.VALUE, new byte[] { 42 }))
			.get(5, TimeUnit.SECONDS)).isTrue();
		AsyncIdempotencyCoordinator.Attempt duplicate = this.coordinator.begin("s", "fp", LONG, Duration.ZERO)
			.get(5, TimeUnit.SECONDS);
		assertThat(duplicate.outcome()).isEqualTo(BeginResult.Outcome.COMPLETED);
		assertThat(duplicate.result().stored().payload()).containsExactly(42);
		assertThat(duplicate.lease()).isNull();
		assertThat(this.decisions).extracting(IdempotencyDecision::outcome).containsExactly(IdempotencyOutcome.RECORDED);
	}

	@Test
	void otherFingerprintIsAMismatchAndNoLease() throws Exception {
		this.coordinator.begin("s", "fp", LONG, Duration.ZERO).get(5, TimeUnit.SECONDS);
		AsyncIdempotencyCoordinator.Attempt other = this.coordinator.begin("s", "other", LONG, Duration.ZERO)
			.get(5, TimeUnit.SECONDS);
		assertThat(other.outcome()).isEqualTo(BeginResult.Outcome.MISMATCH);
		assertThat(other.lease()).isNull();
	}

	@Test
	void waitingDuplicatePollsUntilTheFirstIsRecordedThenGetsItsOutcome() throws Exception {
		AsyncIdempotencyCoordinator.Attempt first = this.coordinator.begin("s", "fp", LONG, Duration.ZERO)
			.get(5, TimeUnit.SECONDS);
		CompletableFuture<AsyncIdempotencyCoordinator.Attempt> waiting = this.coordinator.begin("s", "fp", LONG,
				Duration.ofSeconds(30));
		this.store.awaitBegins(3);
		assertThat(waiting).isNotDone();
		new AsyncSettlement(first.lease(), this.reporter, "POST", "/r", LONG)
			.record(new StoredOutcome(StoredOutcome.Kind.VALUE, new byte[] { 7 }))
			.get(5, TimeUnit.SECONDS);
		AsyncIdempotencyCoordinator.Attempt answered = waiting.get(5, TimeUnit.SECONDS);
		assertThat(answered.outcome()).isEqualTo(BeginResult.Outcome.COMPLETED);
		assertThat(answered.waited()).isTrue();
	}

	@Test
	void duplicateThatMustNotWaitIsAnsweredInProgressAtOnce() throws Exception {
		this.coordinator.begin("s", "fp", LONG, Duration.ZERO).get(5, TimeUnit.SECONDS);
		AsyncIdempotencyCoordinator.Attempt duplicate = this.coordinator.begin("s", "fp", LONG, Duration.ZERO)
			.get(5, TimeUnit.SECONDS);
		assertThat(duplicate.outcome()).isEqualTo(BeginResult.Outcome.IN_PROGRESS);
		assertThat(duplicate.waited()).isFalse();
		assertThat(this.store.begins.get()).isEqualTo(2);
	}

	@Test
	void storeThatFailsIsAnIdempotencyStoreException() {
		AsyncIdempotencyStore failing = new CountingStore(this.memory) {

			@Override
			public CompletableFuture<BeginResult> begin(String scope, String fingerprint, String token,
					Duration leaseTtl) {
				return CompletableFuture.failedFuture(new IllegalStateException("connection refused"));
			}

		};
		CompletableFuture<AsyncIdempotencyCoordinator.Attempt> attempt = new AsyncIdempotencyCoordinator(failing,
				Delayer.of(this.timers))
			.begin("s", "fp", LONG, Duration.ZERO);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> attempt.get(5, TimeUnit.SECONDS))
			.withCauseInstanceOf(IdempotencyStoreException.class)
			.havingRootCause()
			.withMessage("connection refused");
	}

	@Test
	void leaseIsRenewedWhileHeldAndNotOnceSettled() throws Exception {
		Duration leaseTtl = Duration.ofMillis(150);
		AsyncIdempotencyCoordinator.Attempt held = this.coordinator.begin("s", "fp", leaseTtl, Duration.ZERO)
			.get(5, TimeUnit.SECONDS);
		this.store.awaitRenewals(3);
		assertThat(held.lease().isLost()).isFalse();
		AsyncSettlement settlement = new AsyncSettlement(held.lease(), this.reporter, "POST", "/r", LONG);
		assertThat(settlement.release(null).get(5, TimeUnit.SECONDS)).isTrue();
		assertThat(settlement.record(null).get(5, TimeUnit.SECONDS)).as("settled once").isFalse();
		assertThat(this.decisions).extracting(IdempotencyDecision::outcome).containsExactly(IdempotencyOutcome.RELEASED);
	}

	@Test
	void leaseTakenOverIsLostAndItsCompletionRefused() throws Exception {
		Duration leaseTtl = Duration.ofMillis(150);
		AsyncIdempotencyCoordinator.Attempt held = this.coordinator.begin("s", "fp", leaseTtl, Duration.ZERO)
			.get(5, TimeUnit.SECONDS);
		this.memory.release("s", heldToken());
		this.store.awaitRenewals(1);
		AsyncSettlement settlement = new AsyncSettlement(held.lease(), this.reporter, "POST", "/r", LONG);
		assertThat(settlement.record(null).get(5, TimeUnit.SECONDS)).isFalse();
		assertThat(this.decisions).extracting(IdempotencyDecision::outcome).containsExactly(IdempotencyOutcome.LEASE_LOST);
	}

	private String heldToken() {
		return this.store.lastToken;
	}

	/** The memory store, answering asynchronously, counting what it is asked. */
	private static class CountingStore implements AsyncIdempotencyStore {

		private final InMemoryIdempotencyStore memory;

		final AtomicInteger begins = new AtomicInteger();

		private final AtomicInteger renewals = new AtomicInteger();

		private final CountDownLatch[] beginLatches = latches();

		private final CountDownLatch[] renewalLatches = latches();

		volatile String lastToken;

		CountingStore(InMemoryIdempotencyStore memory) {
			this.memory = memory;
		}

		private static CountDownLatch[] latches() {
			CountDownLatch[] latches = new CountDownLatch[10];
			for (int i = 0; i < latches.length; i++) {
				latches[i] = new CountDownLatch(i);
			}
			return latches;
		}

		void awaitBegins(int count) throws InterruptedException {
			assertThat(this.beginLatches[count].await(10, TimeUnit.SECONDS)).isTrue();
		}

		void awaitRenewals(int count) throws InterruptedException {
			assertThat(this.renewalLatches[count].await(10, TimeUnit.SECONDS)).isTrue();
		}

		private static void countDown(CountDownLatch[] latches) {
			for (CountDownLatch latch : latches) {
				latch.countDown();
			}
		}

		@Override
		public CompletableFuture<BeginResult> begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			this.begins.incrementAndGet();
			this.lastToken = (this.lastToken == null) ? token : this.lastToken;
			BeginResult result = this.memory.begin(scope, fingerprint, token, leaseTtl);
			countDown(this.beginLatches);
			return CompletableFuture.supplyAsync(() -> result);
		}

		@Override
		public CompletableFuture<Boolean> renew(String scope, String token, Duration leaseTtl) {
			boolean renewed = this.memory.renew(scope, token, leaseTtl);
			this.renewals.incrementAndGet();
			countDown(this.renewalLatches);
			return CompletableFuture.completedFuture(renewed);
		}

		@Override
		public CompletableFuture<Boolean> complete(String scope, String token, StoredOutcome outcome, Duration ttl) {
			return CompletableFuture.completedFuture(this.memory.complete(scope, token, outcome, ttl));
		}

		@Override
		public CompletableFuture<Boolean> release(String scope, String token) {
			return CompletableFuture.completedFuture(this.memory.release(scope, token));
		}

	}

}
