package dev.modelgate.idempotency.core;

import java.util.List;
import java.util.Objects;

import dev.modelgate.idempotency.core.internal.AttemptTags;

/**
 * What {@link IdempotencyStore#readStream} found of a recorded stream: its head, the events after
 * the sequence asked for (at most as many as asked for, in order), whether more can come, and which
 * attempt recorded them.
 * <p>
 * A record taken over (its lease ran out, a retry began again) holds the new attempt's stream, whose
 * sequences start over at 1: a reader that went on after the sequence it had would splice two
 * attempts into a stream nobody generated. {@link #attempt()} tells them apart: the events of one
 * slice are always of one attempt, and two slices of the same attempt name equal attempts, however
 * the stream went on (completing it does not change it). It is opaque: compare it with
 * {@link String#equals}, never parse it. The stores give the token the attempt began with, so it is
 * kept like the token, never written into a response or a log.
 *
 * @param head the stream's head, opaque to the store (the web layer keeps status and headers in it)
 * @param events the events read, in sequence order
 * @param state whether the stream is still being recorded, ended, or stopped being kept
 * @param attempt which attempt recorded the stream: opaque, equal for every slice of one attempt and
 * different for any other attempt on the same scope
 */
public record StreamSlice(byte[] head, List<StreamEvent> events, State state, String attempt) {

	public StreamSlice {
		Objects.requireNonNull(head, "head must not be null");
		events = List.copyOf(events);
		Objects.requireNonNull(state, "state must not be null");
		Objects.requireNonNull(attempt, "attempt must not be null");
	}

	/** {@return {@code true} when {@code other} was recorded by the same attempt as this slice} */
	public boolean sameAttempt(StreamSlice other) {
		return this.attempt.equals(other.attempt);
	}

	/**
	 * {@return the attempt's short public name, as the ids of its events carry it} Equal for the slices
	 * of one attempt, and for its {@link Lease#attemptTag()}.
	 */
	public String attemptTag() {
		return AttemptTags.of(this.attempt);
	}

	/** {@return the sequence of the last event read, or {@code afterSequence} when none was read} */
	public long lastSequence(long afterSequence) {
		return this.events.isEmpty() ? afterSequence : this.events.get(this.events.size() - 1).sequence();
	}

	/** Where a recorded stream is. */
	public enum State {

		/** Its holder is still recording it: more events may follow. */
		STREAMING,

		/** It ended normally ({@link IdempotencyStore#completeStream}); no event will follow. */
		COMPLETED,

		/**
		 * The record completed without keeping its stream (it outgrew a limit): no event will follow,
		 * and the events are not to be replayed.
		 */
		NOT_KEPT

	}

}
