package dev.modelgate.idempotency.actuate;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.IdempotencyKey;
import dev.modelgate.idempotency.core.IdempotencyRecord;
import dev.modelgate.idempotency.core.IdempotencyScope;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InvalidIdempotencyKeyException;
import dev.modelgate.idempotency.web.internal.ClientIdentities;

/**
 * What the {@code idempotency} Actuator endpoint does, without Spring Boot's endpoint annotations:
 * finds and deletes the record a client's request would meet, named by the scope hash or by what the
 * client sent, hashed exactly as the filter hashes it. The client is named by its authenticated
 * principal's name, by the value of its client identity header (hashed as the filter does), or by
 * the identity a custom {@code ClientIdentityResolver} returns; with none of them, the shared
 * anonymous scope.
 */
public class IdempotencyRecords {

	private static final Pattern SCOPE_HASH = Pattern.compile("[0-9a-f]{64}");

	private final IdempotencyStore store;

	private final int keyMaxLength;

	/**
	 * @param store the store to read and delete records in
	 * @param keyMaxLength the longest key the filter accepts
	 */
	public IdempotencyRecords(IdempotencyStore store, int keyMaxLength) {
		this.store = store;
		this.keyMaxLength = keyMaxLength;
	}

	/**
	 * The scope hash of a client's request, as the filter computes it. Name the client by at most one
	 * of {@code principal}, {@code client} and {@code identity}.
	 * @param method the request's HTTP method
	 * @param route the handler's route pattern, or the scope name of its {@code @Idempotent}
	 * @param key the idempotency key the client sent
	 * @param principal the client's authenticated principal name, or {@code null}
	 * @param client the value of the client's identity header, or {@code null}
	 * @param identity what a custom {@code ClientIdentityResolver} returns for the client, or {@code null}
	 * @return the scope hash
	 * @throws InvalidRecordQueryException when the key is not valid or more than one client is named
	 */
	public String scopeOf(String method, String route, String key, @Nullable String principal,
			@Nullable String client, @Nullable String identity) {
		IdempotencyKey parsed;
		try {
			parsed = IdempotencyKey.parse(List.of(key), this.keyMaxLength);
		}
		catch (InvalidIdempotencyKeyException ex) {
			// The reason never repeats the key: it may end up in a log.
			throw new InvalidRecordQueryException("Invalid idempotency key: " + ex.getMessage(),
					"invalid idempotency key");
		}
		return IdempotencyScope
			.of(clientIdentity(principal, client, identity), method.toUpperCase(Locale.ROOT), route, parsed)
			.hash();
	}

	/**
	 * Checks a scope hash given by hand.
	 * @param scope the scope hash, as log lines and the MDC show it
	 * @return the scope hash
	 * @throws InvalidRecordQueryException when it is not 64 lower-case hex digits
	 */
	public String checkedScope(String scope) {
		if (!SCOPE_HASH.matcher(scope).matches()) {
			throw new InvalidRecordQueryException("A scope is 64 lower-case hex digits (as logged)",
					"malformed scope");
		}
		return scope;
	}

	/**
	 * The live record of a scope.
	 * @param scope the scope hash
	 * @return the record, empty when there is none
	 */
	public Optional<IdempotencyRecord> find(String scope) {
		return this.store.find(scope);
	}

	/**
	 * Deletes the record of a scope, so that its key runs again.
	 * @param scope the scope hash
	 * @return whether a live record was deleted (false: there was none)
	 */
	public boolean delete(String scope) {
		return this.store.delete(scope);
	}

	private static String clientIdentity(@Nullable String principal, @Nullable String client,
			@Nullable String identity) {
		int given = ((principal != null) ? 1 : 0) + ((client != null) ? 1 : 0) + ((identity != null) ? 1 : 0);
		if (given > 1) {
			throw new InvalidRecordQueryException("Name the client by one of principal, client or identity",
					"more than one client given");
		}
		if (principal != null) {
			return ClientIdentities.principalIdentity(principal);
		}
		if (client != null) {
			return ClientIdentities.headerIdentity(client);
		}
		return (identity != null) ? identity : ClientIdentities.ANONYMOUS;
	}

}
