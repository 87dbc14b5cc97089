package dev.modelgate.idempotency.operation.jackson2;

import java.lang.reflect.Type;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import dev.modelgate.idempotency.core.ResultCodec;
import dev.modelgate.idempotency.operation.OperationJson;

/** {@link OperationJson} on Jackson 2's {@link ObjectMapper}, the Spring Boot 3 line's. */
public class Jackson2OperationJson implements OperationJson {

	private final ObjectMapper objectMapper;

	private final ObjectMapper fingerprintMapper;

	/**
	 * @param objectMapper writes and reads results, and writes non-string fingerprints
	 */
	public Jackson2OperationJson(ObjectMapper objectMapper) {
		this.objectMapper = objectMapper;
		this.fingerprintMapper = sorted(objectMapper);
	}

	/**
	 * Jackson 2 sets mapper features on builders only, and Spring Boot 3 gives an {@code ObjectMapper}
	 * built without one: its copy is changed instead.
	 */
	@SuppressWarnings("deprecation")
	private static ObjectMapper sorted(ObjectMapper objectMapper) {
		ObjectMapper sorted = objectMapper.copy();
		sorted.enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
		sorted.enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY);
		return sorted;
	}

	@Override
	public ResultCodec<Object> codec(Type returnType) {
		return JsonResultCodec.of(this.objectMapper, this.objectMapper.constructType(returnType));
	}

	@Override
	public String fingerprint(Object value) {
		try {
			return this.fingerprintMapper.writeValueAsString(value);
		}
		catch (JsonProcessingException ex) {
			throw new IllegalArgumentException("Jackson cannot write " + value.getClass().getName() + ": "
					+ ex.getOriginalMessage(), ex);
		}
	}

}
