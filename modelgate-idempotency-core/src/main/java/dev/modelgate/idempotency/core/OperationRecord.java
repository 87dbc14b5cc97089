package dev.modelgate.idempotency.core;

import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

/**
 * How {@link IdempotencyTemplate} writes an outcome into a {@link StoredOutcome}: a value as its
 * codec encoded it, {@code null}, a failure recorded as final (UTF-8: its class name, a line feed, its
 * message), or an unknown outcome that a retry reconciles. Operation scopes are hashed apart from
 * request scopes, so these records never reach a web filter.
 */
final class OperationRecord {

	private OperationRecord() {
	}

	static StoredOutcome value(byte[] encoded) {
		return new StoredOutcome(StoredOutcome.Kind.VALUE, encoded);
	}

	static StoredOutcome nullValue() {
		return StoredOutcome.empty(StoredOutcome.Kind.NULL);
	}

	static StoredOutcome failure(Throwable failure) {
		String message = (failure.getMessage() != null) ? failure.getMessage() : "";
		return new StoredOutcome(StoredOutcome.Kind.FAILURE,
				(failure.getClass().getName() + "\n" + message).getBytes(StandardCharsets.UTF_8));
	}

	static StoredOutcome unknown() {
		return StoredOutcome.empty(StoredOutcome.Kind.UNKNOWN);
	}

	/**
	 * Checks that a record was written by the template.
	 * @throws IdempotencyStoreException when it holds another kind of outcome (a response)
	 */
	static StoredOutcome read(StoredOutcome stored, String scope) {
		if (stored.kind() == StoredOutcome.Kind.RESPONSE) {
			throw new IdempotencyStoreException("The record of scope " + scope + " is not an operation outcome");
		}
		return stored;
	}

	/** A recorded failure: its class name. */
	static String failureType(StoredOutcome failure) {
		String text = new String(failure.payload(), StandardCharsets.UTF_8);
		int newline = text.indexOf('\n');
		return (newline < 0) ? text : text.substring(0, newline);
	}

	/** A recorded failure: its message, or {@code null} when it had none. */
	static @Nullable String failureMessage(StoredOutcome failure) {
		String text = new String(failure.payload(), StandardCharsets.UTF_8);
		int newline = text.indexOf('\n');
		return (newline < 0 || newline == text.length() - 1) ? null : text.substring(newline + 1);
	}

}
