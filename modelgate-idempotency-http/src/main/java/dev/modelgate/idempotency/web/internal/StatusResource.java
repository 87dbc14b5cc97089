package dev.modelgate.idempotency.web.internal;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The status resource of keyed requests (property {@code status-path}), the same on every web stack:
 * a duplicate answered 409 carries {@code Location: <path>/<token>} ({@link StatusToken}), and a
 * {@code GET} there, with the same client identity and {@code Idempotency-Key}, is answered from the
 * store without running anything ({@link StatusLookup}). The adapters only recognise the path, hand
 * over the request's key and identity, and carry out the answer.
 */
public final class StatusResource {

	private final HttpDecision http;

	private final String prefix;

	/**
	 * @param http the decision whose settings and reporting the lookups share
	 * @param path where the resource lives, such as {@code /idempotency-status}
	 */
	StatusResource(HttpDecision http, String path) {
		this.http = http;
		this.prefix = path.endsWith("/") ? path : path + "/";
	}

	/**
	 * {@return whether a request is a lookup}: a {@code GET} below the resource's path
	 * @param method the request's method
	 * @param path the request's path within the application
	 */
	public boolean isLookup(String method, String path) {
		return "GET".equals(method) && path.length() > this.prefix.length() && path.startsWith(this.prefix);
	}

	/**
	 * {@return where a keyed request's status is asked for}, within the application
	 * @param method the request's method
	 * @param scopeName the key space of its endpoint
	 * @param fingerprint its fingerprint
	 */
	String location(String method, String scopeName, String fingerprint) {
		return this.prefix + new StatusToken(method, scopeName, fingerprint).encode();
	}

	/**
	 * Starts a lookup.
	 * @param path the request's path within the application ({@link #isLookup} said yes)
	 * @param keyValues the key header's values
	 * @param accept the request's {@code Accept} values, joined, or {@code null}: a client that accepts
	 * {@code text/event-stream} follows a running request's stream
	 * @return the lookup; ask its {@link StatusLookup#refusal()} first
	 */
	public StatusLookup start(String path, List<String> keyValues, @Nullable String accept) {
		return new StatusLookup(this.http, path.substring(this.prefix.length()), keyValues, accept);
	}

}
