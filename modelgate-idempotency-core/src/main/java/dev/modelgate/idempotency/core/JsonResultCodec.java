package dev.modelgate.idempotency.core;

import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@link ResultCodec} that keeps results as JSON. Replays therefore return an equal copy of the
 * result, not the same instance, and a type that Jackson cannot read back (no creator, a field that
 * is not serialised) must get a codec of its own.
 *
 * @param <T> the type of the result
 */
final class JsonResultCodec<T> implements ResultCodec<T> {

	private final JsonMapper mapper;

	private final JavaType type;

	JsonResultCodec(JsonMapper mapper, JavaType type) {
		this.mapper = mapper;
		this.type = type;
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
