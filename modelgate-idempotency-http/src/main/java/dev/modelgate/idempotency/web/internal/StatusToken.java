package dev.modelgate.idempotency.web.internal;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * The last segment of a status resource's path: what a lookup needs to find the record of a keyed
 * request again, without its body. Base64url (no padding) of {@code METHOD\nscopeName\nfingerprint}.
 * The client identity is not in it: the lookup takes it from its own request, so a token used by
 * another client names a scope that client never had.
 *
 * @param method the keyed request's HTTP method
 * @param scopeName the key space of its endpoint (its route, unless the endpoint names one)
 * @param fingerprint the SHA-256 of the request (method, path, query, canonical body), in hex
 */
public record StatusToken(String method, String scopeName, String fingerprint) {

	/** RFC 9110 {@code token}: what a method name is made of. */
	private static final Pattern METHOD = Pattern.compile("[!#$%&'*+\\-.^_`|~0-9A-Za-z]+");

	private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{64}");

	/** A longer token is refused before it is decoded: a real one is far shorter. */
	private static final int MAX_LENGTH = 2048;

	/** {@return the token, as it goes in the path} */
	public String encode() {
		String text = this.method + "\n" + this.scopeName + "\n" + this.fingerprint;
		return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * Reads a token back.
	 * @param token the path segment
	 * @return what it names
	 * @throws IllegalArgumentException when it is not a token this library wrote, with a message safe
	 * to show the client
	 */
	public static StatusToken decode(String token) {
		if (token.isEmpty() || token.length() > MAX_LENGTH) {
			throw new IllegalArgumentException("The status token is empty or too long.");
		}
		byte[] bytes;
		try {
			bytes = Base64.getUrlDecoder().decode(token);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("The status token is not base64url.");
		}
		String[] parts = new String(bytes, StandardCharsets.UTF_8).split("\n", -1);
		if (parts.length != 3 || !METHOD.matcher(parts[0]).matches() || parts[1].isEmpty()
				|| !FINGERPRINT.matcher(parts[2]).matches()) {
			throw new IllegalArgumentException("The status token does not name a request.");
		}
		return new StatusToken(parts[0], parts[1], parts[2]);
	}

}
