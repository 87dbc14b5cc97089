package dev.modelgate.idempotency.core;

import java.time.Clock;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The in-memory store is bounded by records and by bytes: completed records are evicted oldest
 * first, a record in progress never is, and what cannot fit is refused or kept without its result.
 */
class InMemoryIdempotencyStoreBoundsTests {

	private static final Duration LONG = Duration.ofMinutes(5);

	@Test
	void evictsTheOldestCompletedRecordWhenFullOfRecords() {
		InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(Clock.systemUTC(), 2, 1024);
		complete(store, "a", 10);
		complete(store, "b", 10);

		assertThat(store.begin("c", "fp", "t", LONG).outcome()).isEqualTo(BeginResult.Outcome.ACQUIRED);

		assertThat(store.begin("a", "fp", "t2", LONG).outcome()).as("evicted: its key runs again")
			.isEqualTo(BeginResult.Outcome.ACQUIRED);
		assertThat(store.evictions()).isEqualTo(2);
		assertThat(store.size()).isEqualTo(2);
	}

	@Test
	void neverEvictsARecordInProgressAndRefusesNewKeysWhenTheyFillTheStore() {
		InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(Clock.systemUTC(), 2, 1024);
		store.begin("a", "fp", "ta", LONG);
		store.begin("b", "fp", "tb", LONG);

		assertThatExceptionOfType(IdempotencyStoreException.class)
			.isThrownBy(() -> store.begin("c", "fp", "tc", LONG))
			.withMessageContaining("max-entries 2");
		assertThat(store.begin("a", "fp", "other", LONG).outcome()).isEqualTo(BeginResult.Outcome.IN_PROGRESS);
		assertThat(store.complete("b", "tb", outcome(8), LONG)).isTrue();
	}

	@Test
	void evictsCompletedRecordsToKeepStoredBytesWithinTheBound() {
		InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(Clock.systemUTC(), 100, 100);
		complete(store, "a", 60);
		complete(store, "b", 60);

		assertThat(store.storedBytes()).isEqualTo(60);
		assertThat(store.find("a")).as("the older one made room").isEmpty();
		assertThat(store.begin("b", "fp", "t", LONG).stored()).isEqualTo(outcome(60));
	}

	@Test
	void keepsTheKeySpentWithoutItsResultWhenTheOutcomeCannotFit() {
		InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(Clock.systemUTC(), 100, 100);
		store.begin("big", "fp", "t", LONG);

		assertThat(store.complete("big", "t", outcome(101), LONG)).isTrue();

		BeginResult retry = store.begin("big", "fp", "t2", LONG);
		assertThat(retry.outcome()).isEqualTo(BeginResult.Outcome.COMPLETED);
		assertThat(retry.stored()).as("completed, result not kept: a retry gets 410, never a second run").isNull();
		assertThat(store.storedBytes()).isZero();
	}

	@Test
	void releasingAndDeletingGiveTheirBytesBack() {
		InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(Clock.systemUTC(), 100, 1000);
		complete(store, "a", 300);
		store.begin("b", "fp", "tb", LONG);
		store.release("b", "tb");
		store.delete("a");

		assertThat(store.storedBytes()).isZero();
		assertThat(store.size()).isZero();
	}

	@Test
	void refusesBoundsThatCannotHoldAnything() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new InMemoryIdempotencyStore(Clock.systemUTC(), 0, 10));
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new InMemoryIdempotencyStore(Clock.systemUTC(), 10, 0));
	}

	private static void complete(InMemoryIdempotencyStore store, String scope, int size) {
		assertThat(store.begin(scope, "fp", "t-" + scope, LONG).outcome()).isEqualTo(BeginResult.Outcome.ACQUIRED);
		assertThat(store.complete(scope, "t-" + scope, outcome(size), LONG)).isTrue();
	}

	private static StoredOutcome outcome(int size) {
		return new StoredOutcome(StoredOutcome.Kind.VALUE, new byte[size]);
	}

}
