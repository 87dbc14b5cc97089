package dev.modelgate.idempotency.core;

/**
 * The store could not be asked (connection refused, timeout, unreadable record). The state of the
 * scope is unknown to the caller.
 */
public class IdempotencyStoreException extends RuntimeException {

	public IdempotencyStoreException(String message, Throwable cause) {
		super(message, cause);
	}

	public IdempotencyStoreException(String message) {
		super(message);
	}

}
