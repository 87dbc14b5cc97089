package dev.modelgate.idempotency.core;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * How {@link IdempotencyTemplate} writes an outcome into a {@link StoredResponse}, the record format
 * the stores keep. The header {@value #KIND_HEADER} says which outcome it is; the status mirrors it
 * for people reading the store:
 *
 * <table>
 * <tr><th>kind</th><th>status</th><th>body</th></tr>
 * <tr><td>{@code value}</td><td>200</td><td>the result, as its {@link ResultCodec} wrote it</td></tr>
 * <tr><td>{@code null}</td><td>204</td><td>empty: the work returned {@code null} or nothing</td></tr>
 * <tr><td>{@code failure}</td><td>500</td><td>UTF-8: the failure's class name, a line feed, its message</td></tr>
 * <tr><td>{@code unknown}</td><td>202</td><td>empty: the work may have taken effect, a retry reconciles</td></tr>
 * </table>
 *
 * Operation scopes are hashed apart from HTTP scopes, so these records never reach the web filter.
 */
final class OperationRecord {

	static final String KIND_HEADER = "Modelgate-Operation";

	private static final byte[] EMPTY = new byte[0];

	private final Kind kind;

	private final byte[] body;

	private OperationRecord(Kind kind, byte[] body) {
		this.kind = kind;
		this.body = body;
	}

	static StoredResponse value(byte[] encoded) {
		return Kind.VALUE.toResponse(encoded);
	}

	static StoredResponse nullValue() {
		return Kind.NULL.toResponse(EMPTY);
	}

	static StoredResponse failure(Throwable failure) {
		String message = (failure.getMessage() != null) ? failure.getMessage() : "";
		return Kind.FAILURE.toResponse((failure.getClass().getName() + "\n" + message).getBytes(StandardCharsets.UTF_8));
	}

	static StoredResponse unknown() {
		return Kind.UNKNOWN.toResponse(EMPTY);
	}

	/**
	 * Reads a record.
	 * @throws IdempotencyStoreException when the record was not written by the template
	 */
	static OperationRecord read(StoredResponse response, String scope) {
		List<String> kind = response.headers().get(KIND_HEADER);
		if (kind != null && kind.size() == 1) {
			for (Kind candidate : Kind.values()) {
				if (candidate.name.equals(kind.get(0))) {
					return new OperationRecord(candidate, response.body());
				}
			}
		}
		throw new IdempotencyStoreException("The record of scope " + scope + " is not an operation outcome");
	}

	Kind kind() {
		return this.kind;
	}

	byte[] body() {
		return this.body;
	}

	/** A recorded failure: its class name. */
	String failureType() {
		String text = new String(this.body, StandardCharsets.UTF_8);
		int newline = text.indexOf('\n');
		return (newline < 0) ? text : text.substring(0, newline);
	}

	/** A recorded failure: its message, or {@code null} when it had none. */
	String failureMessage() {
		String text = new String(this.body, StandardCharsets.UTF_8);
		int newline = text.indexOf('\n');
		return (newline < 0 || newline == text.length() - 1) ? null : text.substring(newline + 1);
	}

	enum Kind {

		VALUE("value", 200), NULL("null", 204), FAILURE("failure", 500), UNKNOWN("unknown", 202);

		private final String name;

		private final int status;

		Kind(String name, int status) {
			this.name = name;
			this.status = status;
		}

		StoredResponse toResponse(byte[] body) {
			return new StoredResponse(this.status, Map.of(KIND_HEADER, List.of(this.name)), body);
		}

	}

}
