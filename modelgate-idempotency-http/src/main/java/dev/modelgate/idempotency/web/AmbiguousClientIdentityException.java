package dev.modelgate.idempotency.web;

/**
 * A request carries the client identity header more than once, so the client it identifies is
 * ambiguous: answered 400 {@code idempotency_client_ambiguous}. Behind a proxy that appends the header
 * instead of replacing it, taking one of the values would let a client choose its identity.
 */
public class AmbiguousClientIdentityException extends RuntimeException {

	private final String identityHeader;

	/**
	 * @param identityHeader the header that came more than once
	 */
	public AmbiguousClientIdentityException(String identityHeader) {
		super("The " + identityHeader + " header came more than once");
		this.identityHeader = identityHeader;
	}

	/** {@return the header that came more than once} */
	public String getIdentityHeader() {
		return this.identityHeader;
	}

}
