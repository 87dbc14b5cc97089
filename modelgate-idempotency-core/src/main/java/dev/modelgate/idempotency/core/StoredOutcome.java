package dev.modelgate.idempotency.core;

import java.util.Arrays;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What a completed record keeps of an operation's outcome, opaque to the store: a {@link Kind} and
 * the bytes an adapter wrote. The web layer writes an HTTP response into it and reads it back,
 * {@link IdempotencyTemplate} a value, a failure or an unknown outcome; the stores keep the two
 * parts as they are and never look inside.
 *
 * @param kind what the bytes are
 * @param payload the bytes, as the adapter wrote them
 */
public record StoredOutcome(Kind kind, byte[] payload) {

	private static final byte[] EMPTY = new byte[0];

	public StoredOutcome {
		Objects.requireNonNull(kind, "kind must not be null");
		Objects.requireNonNull(payload, "payload must not be null");
	}

	/**
	 * {@return an outcome of {@code kind} with no bytes}
	 * @param kind what the outcome is
	 */
	public static StoredOutcome empty(Kind kind) {
		return new StoredOutcome(kind, EMPTY);
	}

	/** {@return the size of the payload in bytes} */
	public int size() {
		return this.payload.length;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return (other instanceof StoredOutcome that) && this.kind == that.kind
				&& Arrays.equals(this.payload, that.payload);
	}

	@Override
	public int hashCode() {
		return 31 * this.kind.hashCode() + Arrays.hashCode(this.payload);
	}

	@Override
	public String toString() {
		return "StoredOutcome[kind=" + this.kind.code() + ", " + this.payload.length + " bytes]";
	}

	/**
	 * The kinds of outcome a record can hold. Each has a short {@link #code()} that the stores write
	 * next to the payload; codes are part of the stored format and never change.
	 */
	public enum Kind {

		/** A response of a request-response protocol, encoded by its web adapter (status, headers, body). */
		RESPONSE("response"),

		/** A value returned by programmatic work, encoded by its result codec. */
		VALUE("value"),

		/** Programmatic work that returned {@code null} or nothing; no payload. */
		NULL("null"),

		/** A failure recorded as final: UTF-8 class name, a line feed, then the message. */
		FAILURE("failure"),

		/** Work that may or may not have taken effect; no payload. A retry reconciles it. */
		UNKNOWN("unknown"),

		/**
		 * A recorded stream that ended normally: the payload is the stream's head (see
		 * {@link IdempotencyStore#openStream}); its events are read with {@link IdempotencyStore#readStream}.
		 */
		STREAM("stream");

		private final String code;

		Kind(String code) {
			this.code = code;
		}

		/** {@return the code the stores write, such as {@code response}} */
		public String code() {
			return this.code;
		}

		/**
		 * The kind written as {@code code}.
		 * @param code the code a store read
		 * @return the kind
		 * @throws IdempotencyStoreException when no kind has that code (a record written by something
		 * else, or by a newer version that added a kind)
		 */
		public static Kind ofCode(String code) {
			for (Kind kind : values()) {
				if (kind.code.equals(code)) {
					return kind;
				}
			}
			throw new IdempotencyStoreException("Unknown stored outcome kind '" + code + "'");
		}

	}

}
