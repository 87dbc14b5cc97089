package dev.modelgate.idempotency.core;

/**
 * The operation ran under this key, but its result cannot be replayed: it was not kept (it could not
 * be encoded, or the process stopped after the work committed in the store's database and before the
 * result was recorded), or the kept bytes can no longer be decoded. Retrying with this key will not
 * run the operation again.
 */
public class IdempotencyResultUnavailableException extends RuntimeException {

	/** The hashed scope, as logs show it. */
	private final String scope;

	/**
	 * A result that is not available.
	 * @param operation the operation's name, for the message
	 * @param scope the hashed scope
	 */
	public IdempotencyResultUnavailableException(String operation, String scope) {
		this(operation, scope, null);
	}

	/**
	 * A result that is not available because it could not be decoded.
	 * @param operation the operation's name, for the message
	 * @param scope the hashed scope
	 * @param cause why the kept bytes could not be decoded
	 */
	public IdempotencyResultUnavailableException(String operation, String scope, Throwable cause) {
		super("Operation '" + operation + "' already ran under this idempotency key (scope " + scope
				+ "), but its result is not available; it will not run again with this key", cause);
		this.scope = scope;
	}

	/** {@return the hashed scope, as logs show it} */
	public String getScope() {
		return this.scope;
	}

}
