package dev.modelgate.idempotency.core;

import java.util.List;
import java.util.Objects;

/**
 * What {@link IdempotencyStore#readStream} found of a recorded stream: its head, the events after
 * the sequence asked for (at most as many as asked for, in order), and whether more can come.
 *
 * @param head the stream's head, opaque to the store (the web layer keeps status and headers in it)
 * @param events the events read, in sequence order
 * @param state whether the stream is still being recorded, ended, or stopped being kept
 */
public record StreamSlice(byte[] head, List<StreamEvent> events, State state) {

	public StreamSlice {
		Objects.requireNonNull(head, "head must not be null");
		events = List.copyOf(events);
		Objects.requireNonNull(state, "state must not be null");
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
