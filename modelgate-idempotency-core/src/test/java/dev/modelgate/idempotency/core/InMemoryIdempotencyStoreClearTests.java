package dev.modelgate.idempotency.core;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link InMemoryIdempotencyStore#clear()} leaves the store as new, so that tests sharing one store
 * do not see each other's keys.
 */
class InMemoryIdempotencyStoreClearTests {

	private static final Duration LONG = Duration.ofMinutes(5);

	@Test
	void clearDropsEveryRecordAndStreamSoEveryKeyRunsAgain() {
		InMemoryIdempotencyStore store = new InMemoryIdempotencyStore();
		store.begin("completed", "fp", "t1", LONG);
		store.complete("completed", "t1", new StoredOutcome(StoredOutcome.Kind.VALUE, new byte[10]), LONG);
		store.begin("running", "fp", "t2", LONG);
		store.begin("streaming", "fp", "t3", LONG);
		assertThat(store.openStream("streaming", "t3", bytes("head"))).isTrue();
		assertThat(store.appendEvents("streaming", "t3", 1, List.of(bytes("data: 1\n\n")))).isTrue();

		store.clear();

		assertThat(store.size()).isZero();
		assertThat(store.storedBytes()).isZero();
		assertThat(store.find("completed")).isEmpty();
		assertThat(store.readStream("streaming", 0, 10)).isEmpty();
		assertThat(store.renew("running", "t2", LONG)).as("the holder's lease is gone").isFalse();
		assertThat(store.complete("running", "t2", null, LONG)).isFalse();
		assertThat(store.begin("completed", "fp", "t4", LONG).outcome()).isEqualTo(BeginResult.Outcome.ACQUIRED);
		assertThat(store.begin("running", "other", "t5", LONG).outcome()).as("any request, no 422 or 409")
			.isEqualTo(BeginResult.Outcome.ACQUIRED);
	}

	@Test
	void clearResetsTheBoundsAndTheEvictionCount() {
		InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(Clock.systemUTC(), 1, 1024);
		store.begin("a", "fp", "ta", LONG);
		store.complete("a", "ta", new StoredOutcome(StoredOutcome.Kind.VALUE, new byte[8]), LONG);
		store.begin("b", "fp", "tb", LONG);
		assertThat(store.evictions()).isEqualTo(1);

		store.clear();

		assertThat(store.evictions()).isZero();
		assertThat(store.begin("c", "fp", "tc", LONG).outcome()).as("room for a new record")
			.isEqualTo(BeginResult.Outcome.ACQUIRED);
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
