package dev.modelgate.idempotency.core;

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

	public static IdempotencyScope of(String clientIdentity, String method, String route, IdempotencyKey key) {
		return new IdempotencyScope(Hashing.sha256()
			.field(clientIdentity)
			.field(method)
			.field(route)
			.field(key.value())
			.hex());
	}

	/** Rebuilds a scope from a hash computed earlier (for example one shown in a log line). */
	public static IdempotencyScope ofHash(String hash) {
		return new IdempotencyScope(hash);
	}

	/** Lower-case hex SHA-256 of the scope: the store key and what logs show. */
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
