package dev.modelgate.idempotency.operation.jackson2;

import java.io.IOException;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.ResultCodec;

/**
 * A {@link ResultCodec} for {@link IdempotencyTemplate} that keeps results as JSON, with Jackson 2
 * (the Spring Boot 3 line; the Spring Boot 4 line's codec of the same name uses Jackson 3). Replays
 * therefore return an equal copy of the result, not the same instance, and a type that Jackson cannot
 * read back (no creator, a field that is not serialised) must get a codec of its own.
 *
 * @param <T> the type of the result
 */
public final class JsonResultCodec<T> implements ResultCodec<T> {

	private final ObjectMapper mapper;

	private final JavaType type;

	private JsonResultCodec(ObjectMapper mapper, JavaType type) {
		this.mapper = mapper;
		this.type = type;
	}

	/**
	 * {@return a codec that keeps a result as JSON written and read by {@code mapper}}
	 * @param mapper writes and reads the JSON
	 * @param type the result's class
	 * @param <T> the type of the result
	 */
	public static <T> ResultCodec<T> of(ObjectMapper mapper, Class<T> type) {
		return new JsonResultCodec<>(mapper, mapper.constructType(type));
	}

	/**
	 * Keeps a result as JSON written and read by {@code mapper}, for generic types such as
	 * {@code List<Ticket>}.
	 * @param mapper writes and reads the JSON
	 * @param type the result's type, with its type arguments
	 * @param <T> the type of the result
	 * @return the codec
	 */
	public static <T> ResultCodec<T> of(ObjectMapper mapper, JavaType type) {
		return new JsonResultCodec<>(mapper, type);
	}

	/** @throws UncheckedIOException when Jackson cannot write the value */
	@Override
	public byte[] encode(T value) {
		try {
			return this.mapper.writerFor(this.type).writeValueAsBytes(value);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** @throws UncheckedIOException when Jackson cannot read the bytes as the type */
	@Override
	public T decode(byte[] bytes) {
		try {
			return this.mapper.readValue(bytes, this.type);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public String toString() {
		return "JSON codec for " + this.type;
	}

}
