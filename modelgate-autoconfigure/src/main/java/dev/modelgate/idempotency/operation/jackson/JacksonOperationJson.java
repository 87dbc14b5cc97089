package dev.modelgate.idempotency.operation.jackson;

import java.lang.reflect.Type;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

import dev.modelgate.idempotency.core.ResultCodec;
import dev.modelgate.idempotency.operation.OperationJson;

/** {@link OperationJson} on Jackson 3's {@link JsonMapper}, the application's when it has one. */
public class JacksonOperationJson implements OperationJson {

	private final JsonMapper jsonMapper;

	private final JsonMapper fingerprintMapper;

	/**
	 * @param jsonMapper writes and reads results, and writes non-string fingerprints
	 */
	public JacksonOperationJson(JsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
		this.fingerprintMapper = jsonMapper.rebuild()
			.enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
			.enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
			.build();
	}

	@Override
	public ResultCodec<Object> codec(Type returnType) {
		return JsonResultCodec.of(this.jsonMapper, this.jsonMapper.constructType(returnType));
	}

	@Override
	public String fingerprint(Object value) {
		try {
			return this.fingerprintMapper.writeValueAsString(value);
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException("Jackson cannot write " + value.getClass().getName() + ": "
					+ ex.getOriginalMessage(), ex);
		}
	}

}
