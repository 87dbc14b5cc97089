package dev.modelgate.idempotency.test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamEvent;
import dev.modelgate.idempotency.core.StreamSlice;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every {@link AsyncIdempotencyStore} that records streams promises: every case of
 * {@link StreamStoreContractTests}, through the futures (each waited for), then streams written by
 * one kind of store and followed or replayed by the other, as in a fleet that mixes them.
 */
public abstract class AsyncStreamStoreContractTests extends StreamStoreContractTests {

	private static final Duration LONG = Duration.ofMinutes(5);

	private static final byte[] HEAD = { 1, 0, (byte) 200, '\r', '\n' };

	/** {@return the store under test on an empty key space, called before each test and for a second instance} */
	protected abstract AsyncIdempotencyStore createAsyncStore();

	/** {@return a blocking store on the records of the stores that {@link #createAsyncStore()} builds} */
	protected abstract IdempotencyStore createBlockingStoreOnTheSameRecords();

	@Override
	protected final IdempotencyStore createStore() {
		return new JoiningIdempotencyStore(createAsyncStore(), null);
	}

	@Test
	void streamWrittenByTheBlockingStoreIsFollowedAndReplayedThroughThisOne() {
		IdempotencyStore blocking = createBlockingStoreOnTheSameRecords();
		AsyncIdempotencyStore async = createAsyncStore();
		String scope = scope();
		String token = UUID.randomUUID().toString();
		blocking.begin(scope, "fp", token, LONG);
		blocking.openStream(scope, token, HEAD);
		blocking.appendEvents(scope, token, 1, List.of(event("1"), event("2")));
		StreamSlice live = JoiningIdempotencyStore.join(async.readStream(scope, 0, 100)).orElseThrow();
		assertThat(live.state()).isEqualTo(StreamSlice.State.STREAMING);
		assertThat(live.head()).isEqualTo(HEAD);
		assertThat(live.events()).containsExactly(new StreamEvent(1, event("1")), new StreamEvent(2, event("2")));
		assertThat(JoiningIdempotencyStore.join(async.appendEvents(scope, token, 3, List.of(event("3"))))).isTrue();
		blocking.completeStream(scope, token, LONG);
		BeginResult replay = JoiningIdempotencyStore.join(async.begin(scope, "fp", UUID.randomUUID().toString(), LONG));
		assertThat(replay.outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(replay.stored()).isEqualTo(new StoredOutcome(StoredOutcome.Kind.STREAM, HEAD));
		StreamSlice rest = JoiningIdempotencyStore.join(async.readStream(scope, 2, 100)).orElseThrow();
		assertThat(rest.state()).isEqualTo(StreamSlice.State.COMPLETED);
		assertThat(rest.events()).containsExactly(new StreamEvent(3, event("3")));
		assertThat(rest.attempt()).isEqualTo(live.attempt());
	}

	@Test
	void streamWrittenByThisStoreIsFollowedAndReplayedThroughTheBlockingOne() {
		IdempotencyStore blocking = createBlockingStoreOnTheSameRecords();
		AsyncIdempotencyStore async = createAsyncStore();
		String scope = scope();
		String token = UUID.randomUUID().toString();
		JoiningIdempotencyStore.join(async.begin(scope, "fp", token, LONG));
		assertThat(JoiningIdempotencyStore.join(async.openStream(scope, token, HEAD))).isTrue();
		assertThat(JoiningIdempotencyStore.join(async.appendEvents(scope, token, 1, List.of(event("1"))))).isTrue();
		StreamSlice live = blocking.readStream(scope, 0, 100).orElseThrow();
		assertThat(live.state()).isEqualTo(StreamSlice.State.STREAMING);
		assertThat(live.events()).containsExactly(new StreamEvent(1, event("1")));
		assertThat(JoiningIdempotencyStore.join(async.completeStream(scope, token, LONG))).isTrue();
		assertThat(blocking.begin(scope, "fp", UUID.randomUUID().toString(), LONG).stored())
			.isEqualTo(new StoredOutcome(StoredOutcome.Kind.STREAM, HEAD));
		StreamSlice replayed = blocking.readStream(scope, 0, 100).orElseThrow();
		assertThat(replayed.state()).isEqualTo(StreamSlice.State.COMPLETED);
		assertThat(replayed.attempt()).isEqualTo(live.attempt());
		assertThat(replayed.events()).containsExactly(new StreamEvent(1, event("1")));
	}

	private static String scope() {
		return (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "");
	}

	private static byte[] event(String data) {
		return ("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8);
	}

}
