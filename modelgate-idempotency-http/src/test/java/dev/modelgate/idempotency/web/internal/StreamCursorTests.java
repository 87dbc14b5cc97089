package dev.modelgate.idempotency.web.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.modelgate.idempotency.core.StreamEvent;
import dev.modelgate.idempotency.core.StreamSlice;
import dev.modelgate.idempotency.core.StreamSlice.State;
import dev.modelgate.idempotency.web.StreamSettings;

import static org.assertj.core.api.Assertions.assertThat;

class StreamCursorTests {

	private static final StreamSettings SETTINGS = new StreamSettings(10_000, 1 << 20, Duration.ofMinutes(1),
			Duration.ofMillis(100));

	@Test
	void completedSliceIsSentAndDone() {
		StreamCursor cursor = new StreamCursor(slice("a", State.COMPLETED, 1, 2), LastEventId.NONE, SETTINGS);

		StreamCursor.Step step = cursor.first();

		assertThat(texts(step)).containsExactly("e1", "e2");
		assertThat(step.next()).isEqualTo(StreamCursor.Next.DONE);
		assertThat(cursor.after()).isEqualTo(2);
	}

	@Test
	void liveSliceWaitsAndAFullBatchReadsOnAtOnce() {
		StreamCursor live = new StreamCursor(slice("a", State.STREAMING, 1, 1), LastEventId.NONE, SETTINGS);
		assertThat(live.first().next()).isEqualTo(StreamCursor.Next.WAIT);

		StreamCursor full = new StreamCursor(slice("a", State.COMPLETED, 1, StreamSettings.READ_BATCH),
				LastEventId.NONE, SETTINGS);
		assertThat(full.first().next()).isEqualTo(StreamCursor.Next.READ_NOW);
		assertThat(full.next(Optional.of(slice("a", State.COMPLETED, StreamSettings.READ_BATCH + 1, 3)))
			.next()).isEqualTo(StreamCursor.Next.DONE);
	}

	@Test
	void sliceOfAnotherAttemptOrNoneEndsInterruptedWithoutItsEvents() {
		StreamCursor cursor = new StreamCursor(slice("a", State.STREAMING, 1, 2), LastEventId.NONE, SETTINGS);
		cursor.first();

		StreamCursor.Step takenOver = cursor.next(Optional.of(slice("b", State.STREAMING, 3, 4)));

		assertThat(texts(takenOver)).singleElement().asString().contains("idempotency_stream_interrupted");
		assertThat(takenOver.next()).isEqualTo(StreamCursor.Next.DONE);
		assertThat(texts(cursor.next(Optional.empty()))).singleElement().asString()
			.contains("idempotency_stream_interrupted");
	}

	@Test
	void lastEventIdOfAnotherAttemptIsNotResumed() {
		StreamSlice now = slice("b", State.COMPLETED, 3, 3);

		StreamCursor.Step other = new StreamCursor(now, new LastEventId(2, "notThis1"), SETTINGS).first();
		StreamCursor.Step same = new StreamCursor(now, new LastEventId(2, now.attemptTag()), SETTINGS).first();
		StreamCursor.Step bare = new StreamCursor(now, new LastEventId(2, null), SETTINGS).first();

		assertThat(texts(other)).singleElement().asString().contains("idempotency_stream_interrupted");
		assertThat(texts(same)).containsExactly("e3", "e4", "e5");
		assertThat(texts(bare)).containsExactly("e3", "e4", "e5");
	}

	@Test
	void streamNotKeptSendsWhatItHasThenTheEnd() {
		StreamCursor.Step step = new StreamCursor(slice("a", State.NOT_KEPT, 1, 1), LastEventId.NONE, SETTINGS).first();

		assertThat(texts(step)).hasSize(2).first().isEqualTo("e1");
		assertThat(texts(step).get(1)).contains("idempotency_result_unavailable");
		assertThat(step.next()).isEqualTo(StreamCursor.Next.DONE);
	}

	@Test
	void storeFailureEndsTheStream() {
		StreamCursor cursor = new StreamCursor(slice("a", State.STREAMING, 1, 1), LastEventId.NONE, SETTINGS);

		assertThat(texts(cursor.unreadable())).singleElement().asString().contains("idempotency_store_unavailable");
	}

	@Test
	void attemptTagIsShortStableAndNotTheToken() {
		StreamSlice slice = slice("the-lease-token", State.STREAMING, 1, 1);

		assertThat(slice.attemptTag()).hasSize(8).matches("[A-Za-z0-9_-]{8}").isEqualTo(slice.attemptTag())
			.doesNotContain("lease");
		assertThat(slice("another-token", State.STREAMING, 1, 1).attemptTag()).isNotEqualTo(slice.attemptTag());
	}

	private static StreamSlice slice(String attempt, State state, int from, int count) {
		List<StreamEvent> events = new ArrayList<>();
		for (int i = from; i < from + count; i++) {
			events.add(new StreamEvent(i, ("e" + i).getBytes(StandardCharsets.UTF_8)));
		}
		return new StreamSlice(new byte[0], events, state, attempt);
	}

	private static List<String> texts(StreamCursor.Step step) {
		return step.data().stream().map((bytes) -> new String(bytes, StandardCharsets.UTF_8)).toList();
	}

}
