package dev.modelgate.idempotency.core;

/**
 * Turns the result of a piece of work run by {@link IdempotencyTemplate} into the bytes that are
 * recorded for replay, and back. JSON codecs live with the JSON library they use (for Jackson 3,
 * {@code dev.modelgate.idempotency.operation.JsonResultCodec} in the auto-configuration module). The template never passes {@code null} to a codec: a {@code null}
 * result is recorded as such and replayed as {@code null} without asking the codec.
 *
 * @param <T> the type of the result
 */
public interface ResultCodec<T> {

	/**
	 * Encodes a result for the store.
	 * @param value the result, never {@code null}
	 * @return the bytes to keep
	 */
	byte[] encode(T value);

	/**
	 * Decodes a result written by {@link #encode} (possibly by another process or an earlier version
	 * of the application).
	 * @param bytes the bytes kept
	 * @return the result
	 */
	T decode(byte[] bytes);

	/** {@return a codec that keeps the bytes as they are} */
	static ResultCodec<byte[]> bytes() {
		return SimpleResultCodecs.BYTES;
	}

	/** {@return a codec that keeps a string as UTF-8} */
	static ResultCodec<String> utf8() {
		return SimpleResultCodecs.UTF8;
	}

	/**
	 * For work without a result ({@code Void}, or a result not worth keeping): records that the work
	 * completed and replays {@code null}.
	 * @param <T> the type of the result
	 * @return the codec
	 */
	@SuppressWarnings("unchecked")
	static <T> ResultCodec<T> none() {
		return (ResultCodec<T>) SimpleResultCodecs.NONE;
	}

}
