package dev.modelgate.idempotency.operation;

import java.lang.reflect.Type;

import dev.modelgate.idempotency.core.ResultCodec;

/**
 * The JSON library {@code @IdempotentOperation} keeps results and writes fingerprints with: Jackson 3
 * on the Spring Boot 4 line ({@code JacksonOperationJson}), Jackson 2 on the Spring Boot 3.5 line
 * ({@code Jackson2OperationJson}). The interceptor itself is the same on both.
 */
public interface OperationJson {

	/**
	 * A codec that keeps results of a method's return type as JSON.
	 * @param returnType the method's generic return type
	 * @return the codec
	 */
	ResultCodec<Object> codec(Type returnType);

	/**
	 * A fingerprint value written as JSON with map entries and properties sorted, so that their order
	 * does not change the fingerprint.
	 * @param value the value of the fingerprint expression, not a string
	 * @return its JSON
	 * @throws IllegalArgumentException when the value cannot be written
	 */
	String fingerprint(Object value);

}
