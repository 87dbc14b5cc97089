package dev.modelgate.idempotency.web.internal;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.web.internal.LastEventId;
import dev.modelgate.idempotency.web.internal.SseEvents;

/**
 * A client's {@code Last-Event-ID}: the place in a recorded stream it has, and the attempt that
 * recorded it. The ids of recorded events are {@code <sequence>.<attempt tag>}
 * ({@link SseEvents#withId}); a bare number (an id of an earlier version, or a client's own) names a
 * place without an attempt.
 *
 * @param sequence the last event the client has (0: none)
 * @param attempt the tag of the attempt that recorded it, or {@code null} when the id names none
 */
public record LastEventId(long sequence, @Nullable String attempt) {

	/** No {@code Last-Event-ID}: the stream from its first event, whichever attempt recorded it. */
	public static final LastEventId NONE = new LastEventId(0, null);

	/**
	 * Reads a {@code Last-Event-ID} header; anything that is not an id of ours counts as none.
	 * @param value the header's value, or {@code null}
	 */
	public static LastEventId parse(@Nullable String value) {
		if (value == null) {
			return NONE;
		}
		String id = value.trim();
		int dot = id.indexOf('.');
		String attempt = (dot >= 0 && dot < id.length() - 1) ? id.substring(dot + 1) : null;
		try {
			long sequence = Long.parseLong((dot >= 0) ? id.substring(0, dot) : id);
			return (sequence > 0) ? new LastEventId(sequence, attempt) : NONE;
		}
		catch (NumberFormatException ex) {
			return NONE;
		}
	}

	/**
	 * {@return whether the client's events were recorded by the attempt with this tag} True when the id
	 * names no attempt.
	 * @param attemptTag the tag of the attempt the store holds now
	 */
	public boolean isOf(String attemptTag) {
		return this.attempt == null || this.attempt.equals(attemptTag);
	}

}
