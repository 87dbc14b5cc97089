package dev.modelgate.idempotency.operation.jackson;

import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.ResultCodec;

/**
 * A {@link ResultCodec} for {@link IdempotencyTemplate} that keeps results as JSON, with Jackson 3. Replays therefore return an equal copy of the
 * result, not the same instance, and a type that Jackson cannot read back (no creator, a field that
 * is not serialised) must get a codec of its own.
 *
 * @param <T> the type of the result
 */
public final class JsonResultCodec<T> implements ResultCodec<T> {

	private final JsonMapper mapper;

	private final JavaType type;

	private JsonResultCodec(JsonMapper mapper, JavaType type) {
		this.mapper = mapper;
		this.type = type;
	}

	/**
	 * {@return a codec that keeps a result as JSON written and read by {@code mapper}}
	 * @param mapper writes and reads the JSON
	 * @param type the result's class
	 * @param <T> the type of the result
	 */
	public static <T> ResultCodec<T> of(JsonMapper mapper, Class<T> type) {
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
	public static <T> ResultCodec<T> of(JsonMapper mapper, JavaType type) {
		return new JsonResultCodec<>(mapper, type);
	}

	@Override
	public byte[] encode(T value) {
		return this.mapper.writerFor(this.type).writeValueAsBytes(value);
	}

	@Override
	public T decode(byte[] bytes) {
		return this.mapper.readValue(bytes, this.type);
	}

	@Override
	public String toString() {
		return "JSON codec for " + this.type;
	}

}
