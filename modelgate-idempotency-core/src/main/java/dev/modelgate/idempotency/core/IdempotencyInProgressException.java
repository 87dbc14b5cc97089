package dev.modelgate.idempotency.core;

/**
 * The same operation with the same key is running elsewhere (another thread, process or delivery of
 * the same message). Nothing ran here; retry later, when the running attempt has recorded its
 * result or given the key up.
 */
public class IdempotencyInProgressException extends RuntimeException {

	/** The hashed scope, as logs show it. */
	private final String scope;

	/**
	 * An operation running elsewhere.
	 * @param operation the operation's name, for the message
	 * @param scope the hashed scope
	 */
	public IdempotencyInProgressException(String operation, String scope) {
		super("Operation '" + operation + "' is already running under this idempotency key (scope " + scope + ")");
		this.scope = scope;
	}

	/** {@return the hashed scope, as logs show it} */
	public String getScope() {
		return this.scope;
	}

}
