package dev.modelgate.idempotency.web.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.modelgate.idempotency.core.StreamEvent;
import dev.modelgate.idempotency.core.StreamSlice;
import dev.modelgate.idempotency.web.StreamSettings;
import dev.modelgate.idempotency.web.internal.LastEventId;
import dev.modelgate.idempotency.web.internal.SseEvents;
import dev.modelgate.idempotency.web.internal.StreamCursor;

/**
 * One follower's place in a recorded stream, and what it does next: every stack's follower (the
 * servlet filter's, on its request thread and then a scheduler; the reactive engine's, in a Flux)
 * only reads the slices this asks for and writes what it returns, so that paging, the end, the limits
 * and a takeover are decided once.
 *
 * <p>A stream that will not complete (released after a failure, expired, no longer recorded, or taken
 * over by another attempt, whose events go on from sequence 1 of a different generation) ends with an
 * {@code event: error}, so that a follower is never left waiting and never splices two attempts into
 * one stream nobody generated. So does a {@code Last-Event-ID} that names another attempt than the one
 * the store holds now.
 */
public final class StreamCursor {

	private final StreamSlice first;

	private final LastEventId from;

	private final long deadline;

	private long after;

	/**
	 * @param first the first slice read, after {@code from}'s sequence
	 * @param from where the client resumes ({@link LastEventId#NONE} from the start)
	 * @param settings how long a follower follows
	 */
	public StreamCursor(StreamSlice first, LastEventId from, StreamSettings settings) {
		this.first = first;
		this.from = from;
		this.after = from.sequence();
		this.deadline = System.nanoTime() + settings.maxDuration().toNanos();
	}

	/** {@return what to send of the first slice, and what next} */
	public Step first() {
		if (!this.from.isOf(this.first.attemptTag())) {
			return end(new ArrayList<>(1), "idempotency_stream_interrupted",
					"the stream that Last-Event-ID names was replaced by another attempt; "
							+ "retry without Last-Event-ID to receive the new one from its start");
		}
		return step(this.first);
	}

	/**
	 * {@return what to send of the next slice, and what next}
	 * @param next what the store holds after {@link #after()} now
	 */
	public Step next(Optional<StreamSlice> next) {
		if (next.isEmpty() || !next.get().sameAttempt(this.first)) {
			return end(new ArrayList<>(1), "idempotency_stream_interrupted",
					"the stream ended before its end; a retry with the same key runs it again");
		}
		return step(next.get());
	}

	/** {@return the end of a stream the store could not be asked for} */
	public Step unreadable() {
		return end(new ArrayList<>(1), "idempotency_store_unavailable", "the stream could not be read; retry later");
	}

	/** {@return the sequence of the last event sent: the next read starts after it} */
	public long after() {
		return this.after;
	}

	private Step step(StreamSlice slice) {
		List<byte[]> data = new ArrayList<>(slice.events().size() + 1);
		for (StreamEvent event : slice.events()) {
			data.add(event.data());
		}
		this.after = slice.lastSequence(this.after);
		boolean more = slice.events().size() == StreamSettings.READ_BATCH;
		if (slice.state() == StreamSlice.State.COMPLETED && !more) {
			return new Step(data, Next.DONE);
		}
		if (slice.state() == StreamSlice.State.NOT_KEPT) {
			return end(data, "idempotency_result_unavailable",
					"the stream outgrew what is recorded; retrying with this key will not run it again");
		}
		if (more) {
			return new Step(data, Next.READ_NOW);
		}
		if (System.nanoTime() > this.deadline) {
			return end(data, "idempotency_request_in_progress", "the stream is still running; retry later");
		}
		return new Step(data, Next.WAIT);
	}

	private static Step end(List<byte[]> data, String code, String detail) {
		data.add(SseEvents.terminal(code, detail));
		return new Step(data, Next.DONE);
	}

	/** What a follower does once it sent a step's data. */
	public enum Next {

		/** The response is complete. */
		DONE,

		/** Read the next slice at once: the last one was a full batch. */
		READ_NOW,

		/** Read the next slice after {@link StreamSettings#pollInterval()}: the stream goes on. */
		WAIT

	}

	/**
	 * What to send, then what to do.
	 *
	 * @param data the events (and, at an end that is not the stream's own, the {@code event: error}) to
	 * write, in order
	 * @param next what next
	 */
	public record Step(List<byte[]> data, Next next) {

	}

}
