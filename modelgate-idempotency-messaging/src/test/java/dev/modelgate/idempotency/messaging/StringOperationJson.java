package dev.modelgate.idempotency.messaging;

import java.lang.reflect.Type;

import dev.modelgate.idempotency.core.ResultCodec;
import dev.modelgate.idempotency.operation.OperationJson;

/** Results of the test listeners are strings; the applications' JSON is the auto-configuration's. */
final class StringOperationJson implements OperationJson {

	@Override
	@SuppressWarnings("unchecked")
	public ResultCodec<Object> codec(Type returnType) {
		if (returnType != String.class) {
			throw new IllegalArgumentException("test listeners return strings, not " + returnType);
		}
		return (ResultCodec<Object>) (ResultCodec<?>) ResultCodec.utf8();
	}

	@Override
	public String fingerprint(Object value) {
		return value.toString();
	}

}
