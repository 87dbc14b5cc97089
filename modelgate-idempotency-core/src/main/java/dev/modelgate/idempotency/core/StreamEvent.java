package dev.modelgate.idempotency.core;

import java.util.Arrays;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One event of a recorded stream, opaque to the store: its place in the stream and the exact bytes
 * an adapter sent for it (for Server-Sent Events, the event's lines up to and including the blank
 * line that ends it).
 *
 * @param sequence the event's place in its stream, counted from 1 without gaps
 * @param data the bytes, as the adapter wrote them
 */
public record StreamEvent(long sequence, byte[] data) {

	public StreamEvent {
		if (sequence < 1) {
			throw new IllegalArgumentException("sequence must be positive, was " + sequence);
		}
		Objects.requireNonNull(data, "data must not be null");
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return (other instanceof StreamEvent that) && this.sequence == that.sequence
				&& Arrays.equals(this.data, that.data);
	}

	@Override
	public int hashCode() {
		return 31 * Long.hashCode(this.sequence) + Arrays.hashCode(this.data);
	}

	@Override
	public String toString() {
		return "StreamEvent[" + this.sequence + ", " + this.data.length + " bytes]";
	}

}
