package dev.modelgate.idempotency.core;

import dev.modelgate.idempotency.core.internal.Hashing;

/**
 * The identity of one logical operation: who asked (client identity), what (method and route, or an
 * explicit scope name) and which attempt (the key). Only its SHA-256 is kept, so neither the key nor
 * the client identity reaches the store or the logs.
 */
public final class IdempotencyScope {

	private final String hash;

	private IdempotencyScope(String hash) {
		this.hash = hash;
	}

	/**
	 * {@return the scope of a request}
	 * @param clientIdentity who asked
	 * @param method the HTTP method, or the kind of operation
	 * @param route the route pattern, or the explicit scope name
	 * @param key the idempotency key
	 */
	public static IdempotencyScope of(String clientIdentity, String method, String route, IdempotencyKey key) {
		return new IdempotencyScope(Hashing.sha256()
			.field(clientIdentity)
			.field(method)
			.field(route)
			.field(key.value())
			.hex());
	}

	/**
	 * {@return a scope rebuilt from a hash computed earlier} For example one shown in a log line.
	 * @param hash the scope's {@link #hash()}
	 */
	public static IdempotencyScope ofHash(String hash) {
		return new IdempotencyScope(hash);
	}

	/** {@return the lower-case hex SHA-256 of the scope: the store key and what logs show} */
	public String hash() {
		return this.hash;
	}

	@Override
	public boolean equals(Object other) {
		return (other instanceof IdempotencyScope that) && this.hash.equals(that.hash);
	}

	@Override
	public int hashCode() {
		return this.hash.hashCode();
	}

	@Override
	public String toString() {
		return this.hash;
	}

}
