package dev.modelgate.idempotency.core;

/**
 * The key was already used for this operation with a different fingerprint: the caller reused a key
 * for another request. Nothing ran.
 */
public class IdempotencyKeyReusedException extends RuntimeException {

	/** The hashed scope, as logs show it. */
	private final String scope;

	/**
	 * A key reused for another request.
	 * @param operation the operation's name, for the message
	 * @param scope the hashed scope
	 */
	public IdempotencyKeyReusedException(String operation, String scope) {
		super("The idempotency key of operation '" + operation + "' (scope " + scope
				+ ") was already used with a different fingerprint");
		this.scope = scope;
	}

	/** {@return the hashed scope, as logs show it} */
	public String getScope() {
		return this.scope;
	}

}
