package dev.modelgate.idempotency.core;

/**
 * The store could not be asked (connection refused, timeout, unreadable record). The state of the
 * scope is unknown to the caller.
 */
public class IdempotencyStoreException extends RuntimeException {

	/**
	 * A store failure with its cause.
	 * @param message what was asked of which record
	 * @param cause the client's failure
	 */
	public IdempotencyStoreException(String message, Throwable cause) {
		super(message, cause);
	}

	/**
	 * A store failure without an underlying exception.
	 * @param message what was asked of which record, and what went wrong
	 */
	public IdempotencyStoreException(String message) {
		super(message);
	}

	/**
	 * The message and, when it says something the message does not, the root cause: for a log line
	 * such as "begin failed on Redis key ...: RedisConnectionException: Unable to connect to
	 * 127.0.0.1:6379".
	 * @return the description
	 */
	public String describe() {
		Throwable root = this;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		String message = getMessage();
		if (root == this || root.getMessage() == null || (message != null && message.contains(root.getMessage()))) {
			return message;
		}
		return message + ": " + root.getClass().getSimpleName() + ": " + root.getMessage();
	}

}
