package dev.modelgate.idempotency.test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamEvent;
import dev.modelgate.idempotency.core.StreamSlice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What every {@link IdempotencyStore} that records streams promises ({@code openStream},
 * {@code appendEvents}, {@code completeStream}, {@code readStream}), run against each implementation
 * on a real server. Subclasses only say how to build the store; a second store built the same way
 * stands for another instance sharing it.
 */
public abstract class StreamStoreContractTests {

	private static final Duration LONG = Duration.ofMinutes(5);

	private static final Duration SHORT_LEASE = Duration.ofMillis(300);

	private static final byte[] HEAD = { 1, 0, (byte) 200, '\r', '\n' };

	private IdempotencyStore store;

	private String scope;

	private String token;

	/** {@return a store on an empty key space, called before each test and for a second instance} */
	protected abstract IdempotencyStore createStore();

	@BeforeEach
	void beginAnAttempt() {
		this.store = createStore();
		this.scope = (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "");
		this.token = UUID.randomUUID().toString();
		assertThat(this.store.begin(this.scope, "fp", this.token, LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
	}

	@Test
	void openedStreamIsReadWithItsHeadAndNoEventsWhileStreaming() {
		assertThat(this.store.openStream(this.scope, this.token, HEAD)).isTrue();
		StreamSlice slice = this.store.readStream(this.scope, 0, 100).orElseThrow();
		assertThat(slice.head()).isEqualTo(HEAD);
		assertThat(slice.events()).isEmpty();
		assertThat(slice.state()).isEqualTo(StreamSlice.State.STREAMING);
	}

	@Test
	void appendedEventsAreReadInOrderByteForByte() {
		this.store.openStream(this.scope, this.token, HEAD);
		byte[] binary = { 0, (byte) 0xFF, (byte) 0xC3, 0x28, '\r', '\n', '\n' };
		assertThat(this.store.appendEvents(this.scope, this.token, 1, List.of(event("one"), binary))).isTrue();
		assertThat(this.store.appendEvents(this.scope, this.token, 3, List.of(event("three")))).isTrue();
		assertThat(this.store.readStream(this.scope, 0, 100).orElseThrow().events()).containsExactly(
				new StreamEvent(1, event("one")), new StreamEvent(2, binary), new StreamEvent(3, event("three")));
	}

	@Test
	void readReturnsOnlyEventsAfterTheGivenSequenceAndAtMostMax() {
		this.store.openStream(this.scope, this.token, HEAD);
		this.store.appendEvents(this.scope, this.token, 1, List.of(event("1"), event("2"), event("3"), event("4")));
		StreamSlice slice = this.store.readStream(this.scope, 1, 2).orElseThrow();
		assertThat(slice.events()).extracting(StreamEvent::sequence).containsExactly(2L, 3L);
		assertThat(slice.lastSequence(1)).isEqualTo(3);
		assertThat(this.store.readStream(this.scope, 4, 10).orElseThrow().events()).isEmpty();
	}

	@Test
	void appendThatDoesNotFollowTheLastEventIsRefusedAndChangesNothing() {
		this.store.openStream(this.scope, this.token, HEAD);
		this.store.appendEvents(this.scope, this.token, 1, List.of(event("1")));
		assertThat(this.store.appendEvents(this.scope, this.token, 1, List.of(event("again")))).isFalse();
		assertThat(this.store.appendEvents(this.scope, this.token, 3, List.of(event("gap")))).isFalse();
		assertThat(this.store.readStream(this.scope, 0, 100).orElseThrow().events())
			.containsExactly(new StreamEvent(1, event("1")));
	}

	@Test
	void onlyTheHolderOpensAppendsAndCompletes() {
		String other = UUID.randomUUID().toString();
		assertThat(this.store.openStream(this.scope, other, HEAD)).isFalse();
		this.store.openStream(this.scope, this.token, HEAD);
		assertThat(this.store.appendEvents(this.scope, other, 1, List.of(event("1")))).isFalse();
		assertThat(this.store.completeStream(this.scope, other, LONG)).isFalse();
		StreamSlice slice = this.store.readStream(this.scope, 0, 100).orElseThrow();
		assertThat(slice.events()).isEmpty();
		assertThat(slice.state()).isEqualTo(StreamSlice.State.STREAMING);
	}

	@Test
	void streamIsOpenedOnceAndAppendedOnlyOnceOpen() {
		assertThat(this.store.appendEvents(this.scope, this.token, 1, List.of(event("1")))).isFalse();
		assertThat(this.store.completeStream(this.scope, this.token, LONG)).isFalse();
		assertThat(this.store.openStream(this.scope, this.token, HEAD)).isTrue();
		assertThat(this.store.openStream(this.scope, this.token, new byte[] { 9 })).isFalse();
		assertThat(this.store.readStream(this.scope, 0, 100).orElseThrow().head()).isEqualTo(HEAD);
	}

	@Test
	void recordWithoutStreamOrNoRecordReadsAsEmpty() {
		assertThat(this.store.readStream(this.scope, 0, 100)).isEmpty();
		assertThat(this.store.readStream("0".repeat(64), 0, 100)).isEmpty();
	}

	@Test
	void completedStreamIsReplayedWholeAndBeginAnswersCompletedWithItsHead() {
		this.store.openStream(this.scope, this.token, HEAD);
		this.store.appendEvents(this.scope, this.token, 1, List.of(event("1"), event("2")));
		assertThat(this.store.completeStream(this.scope, this.token, LONG)).isTrue();
		BeginResult again = this.store.begin(this.scope, "fp", UUID.randomUUID().toString(), LONG);
		assertThat(again.outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(again.stored()).isEqualTo(new StoredOutcome(StoredOutcome.Kind.STREAM, HEAD));
		StreamSlice slice = this.store.readStream(this.scope, 0, 100).orElseThrow();
		assertThat(slice.state()).isEqualTo(StreamSlice.State.COMPLETED);
		assertThat(slice.events()).extracting(StreamEvent::sequence).containsExactly(1L, 2L);
		assertThat(this.store.appendEvents(this.scope, this.token, 3, List.of(event("3")))).isFalse();
		assertThat(this.store.completeStream(this.scope, this.token, LONG)).isFalse();
	}

	@Test
	void streamCompletedWithoutItsResultIsNotReplayed() {
		this.store.openStream(this.scope, this.token, HEAD);
		this.store.appendEvents(this.scope, this.token, 1, List.of(event("1")));
		assertThat(this.store.complete(this.scope, this.token, null, LONG)).isTrue();
		StreamSlice slice = this.store.readStream(this.scope, 0, 100).orElseThrow();
		assertThat(slice.state()).isEqualTo(StreamSlice.State.NOT_KEPT);
		assertThat(slice.events()).isEmpty();
		BeginResult again = this.store.begin(this.scope, "fp", UUID.randomUUID().toString(), LONG);
		assertThat(again.outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(again.stored()).isNull();
	}

	@Test
	void releasedStreamIsGoneAndTheNextAttemptStartsAnEmptyOne() {
		this.store.openStream(this.scope, this.token, HEAD);
		this.store.appendEvents(this.scope, this.token, 1, List.of(event("1")));
		assertThat(this.store.release(this.scope, this.token)).isTrue();
		assertThat(this.store.readStream(this.scope, 0, 100)).isEmpty();
		String next = UUID.randomUUID().toString();
		assertThat(this.store.begin(this.scope, "fp", next, LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
		assertThat(this.store.readStream(this.scope, 0, 100)).isEmpty();
		this.store.openStream(this.scope, next, HEAD);
		assertThat(this.store.readStream(this.scope, 0, 100).orElseThrow().events()).isEmpty();
		assertThat(this.store.appendEvents(this.scope, next, 1, List.of(event("new")))).isTrue();
	}

	@Test
	void streamTakenOverAfterItsLeaseRanOutStartsEmpty() throws InterruptedException {
		String expiring = (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "");
		String first = UUID.randomUUID().toString();
		this.store.begin(expiring, "fp", first, SHORT_LEASE);
		this.store.openStream(expiring, first, HEAD);
		this.store.appendEvents(expiring, first, 1, List.of(event("old")));
		awaitNoLiveRecord(expiring);
		assertThat(this.store.readStream(expiring, 0, 100)).isEmpty();
		String second = UUID.randomUUID().toString();
		assertThat(this.store.begin(expiring, "fp", second, LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
		assertThat(this.store.appendEvents(expiring, first, 2, List.of(event("late")))).isFalse();
		this.store.openStream(expiring, second, HEAD);
		assertThat(this.store.readStream(expiring, 0, 100).orElseThrow().events()).isEmpty();
		assertThat(this.store.appendEvents(expiring, second, 1, List.of(event("new")))).isTrue();
	}

	@Test
	void anotherInstanceFollowsTheStreamAsItIsAppended() {
		IdempotencyStore follower = createStore();
		this.store.openStream(this.scope, this.token, HEAD);
		this.store.appendEvents(this.scope, this.token, 1, List.of(event("1")));
		StreamSlice first = follower.readStream(this.scope, 0, 100).orElseThrow();
		assertThat(first.events()).extracting(StreamEvent::sequence).containsExactly(1L);
		this.store.appendEvents(this.scope, this.token, 2, List.of(event("2")));
		this.store.completeStream(this.scope, this.token, LONG);
		StreamSlice rest = follower.readStream(this.scope, first.lastSequence(0), 100).orElseThrow();
		assertThat(rest.events()).containsExactly(new StreamEvent(2, event("2")));
		assertThat(rest.state()).isEqualTo(StreamSlice.State.COMPLETED);
	}

	@Test
	void streamTakenOverAfterItsLeaseRanOutIsReadAsAnotherAttempt() throws InterruptedException {
		String expiring = (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "");
		String first = UUID.randomUUID().toString();
		IdempotencyStore follower = createStore();
		this.store.begin(expiring, "fp", first, SHORT_LEASE);
		this.store.openStream(expiring, first, HEAD);
		this.store.appendEvents(expiring, first, 1, List.of(event("a1"), event("a2"), event("a3")));
		StreamSlice before = follower.readStream(expiring, 0, 100).orElseThrow();
		assertThat(before.events()).extracting(StreamEvent::data)
			.containsExactly(event("a1"), event("a2"), event("a3"));
		awaitNoLiveRecord(expiring);
		String second = UUID.randomUUID().toString();
		assertThat(this.store.begin(expiring, "fp", second, LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
		assertThat(this.store.openStream(expiring, second, HEAD)).isTrue();
		assertThat(this.store.appendEvents(expiring, second, 1,
				List.of(event("b1"), event("b2"), event("b3"), event("b4"), event("b5"))))
			.isTrue();
		// The follower asks for what follows its event 3: what it gets is the second attempt's.
		StreamSlice after = follower.readStream(expiring, before.lastSequence(0), 100).orElseThrow();
		assertThat(after.events()).containsExactly(new StreamEvent(4, event("b4")), new StreamEvent(5, event("b5")));
		assertThat(after.attempt()).isNotEqualTo(before.attempt());
		assertThat(after.sameAttempt(before)).isFalse();
		assertThat(follower.readStream(expiring, 0, 100).orElseThrow().attempt()).isEqualTo(after.attempt());
	}

	@Test
	void everySliceOfOneAttemptNamesTheSameAttemptFromAnyInstanceUntilAfterItCompletes() {
		IdempotencyStore follower = createStore();
		this.store.openStream(this.scope, this.token, HEAD);
		StreamSlice opened = this.store.readStream(this.scope, 0, 100).orElseThrow();
		this.store.appendEvents(this.scope, this.token, 1, List.of(event("1")));
		StreamSlice streaming = follower.readStream(this.scope, 0, 100).orElseThrow();
		this.store.completeStream(this.scope, this.token, LONG);
		StreamSlice completed = follower.readStream(this.scope, 1, 100).orElseThrow();
		assertThat(completed.state()).isEqualTo(StreamSlice.State.COMPLETED);
		assertThat(streaming.attempt()).isEqualTo(opened.attempt());
		assertThat(completed.attempt()).isEqualTo(opened.attempt());

		String other = (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "");
		String token = UUID.randomUUID().toString();
		this.store.begin(other, "fp", token, LONG);
		this.store.openStream(other, token, HEAD);
		StreamSlice otherStreaming = follower.readStream(other, 0, 100).orElseThrow();
		this.store.complete(other, token, null, LONG);
		StreamSlice notKept = follower.readStream(other, 0, 100).orElseThrow();
		assertThat(notKept.state()).isEqualTo(StreamSlice.State.NOT_KEPT);
		assertThat(notKept.attempt()).isEqualTo(otherStreaming.attempt());
	}

	private static byte[] event(String data) {
		return ("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8);
	}

	/** Waits until the scope's stream is no longer read: its lease ran out (not every store here can find()). */
	private void awaitNoLiveRecord(String scope) {
		await("the lease of " + scope + " to run out").atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> this.store.readStream(scope, 0, 1).isEmpty());
	}

}
