package dev.modelgate.idempotency.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

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
	void makesRoomWithRecordsExpiredSinceTheLastSweepBeforeEvictingLiveOnes() {
		AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-01T10:00:00Z"));
		Clock clock = new Clock() {

			@Override
			public Instant instant() {
				return now.get();
			}

			@Override
			public java.time.ZoneId getZone() {
				return ZoneOffset.UTC;
			}

			@Override
			public Clock withZone(java.time.ZoneId zone) {
				return this;
			}

		};
		InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 2, 1024);
		complete(store, "a", 10);
		complete(store, "b", 10);
		// Full: this begin sweeps (nothing has expired) and evicts a, the oldest completed record.
		store.begin("short", "fp", "t-short", LONG);
		store.complete("short", "t-short", outcome(10), Duration.ofSeconds(1));
		now.set(now.get().plusSeconds(2));

		assertThat(store.begin("c", "fp", "t-c", LONG).outcome()).isEqualTo(BeginResult.Outcome.ACQUIRED);

		assertThat(store.find("short")).as("expired after the last sweep, and swept first").isEmpty();
		assertThat(store.begin("b", "fp", "t2", LONG).outcome()).as("still kept: a replay")
			.isEqualTo(BeginResult.Outcome.COMPLETED);
		assertThat(store.evictions()).isEqualTo(1);
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
