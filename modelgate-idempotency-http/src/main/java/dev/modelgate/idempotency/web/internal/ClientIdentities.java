package dev.modelgate.idempotency.web.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.web.AmbiguousClientIdentityException;
import dev.modelgate.idempotency.web.internal.ClientIdentities;

/**
 * How the default identity resolvers of every web stack name a client, so that a client has the same
 * scopes under each of them and tools (the Actuator endpoint) find its records the same way: the
 * authenticated principal's name when there is one ({@code principal:<name>}); else the SHA-256 of
 * the configured identity header ({@code header:<sha-256>}, so that two API keys never share a key
 * space and the value itself is never kept); else, when no identity header is configured, the one
 * shared {@value #ANONYMOUS} identity, and when one is, none (the request is unidentified).
 *
 * <p>A blank name or header value (empty, or white space only) identifies nobody: were it an identity,
 * every client that sends {@code Authorization: } would share one key space. A header value is taken
 * byte for byte (case and inner white space count; the container trims the ends). The header sent
 * more than once is refused ({@link AmbiguousClientIdentityException}), never resolved to its first value.
 */
public final class ClientIdentities {

	/** The identity shared by requests with neither a principal nor the identity header. */
	public static final String ANONYMOUS = "anonymous";

	private ClientIdentities() {
	}

	/**
	 * The identity of a request.
	 * @param principalName the authenticated principal's name, or {@code null}
	 * @param identityHeader the configured identity header, or {@code null} when none is
	 * @param headerValues the identity header's values on the request (one per header line), empty when
	 * it has none
	 * @return the identity, or {@code null} when the request is unidentified
	 * @throws AmbiguousClientIdentityException when an unauthenticated request carries the identity
	 * header more than once: which of its values names the client is not for this library to guess
	 */
	public static @Nullable String of(@Nullable String principalName, @Nullable String identityHeader,
			List<String> headerValues) {
		if (principalName != null && !principalName.isBlank()) {
			return principalIdentity(principalName);
		}
		if (identityHeader != null && headerValues.size() > 1) {
			throw new AmbiguousClientIdentityException(identityHeader);
		}
		return fromHeader(identityHeader, headerValues.isEmpty() ? null : headerValues.get(0));
	}

	/**
	 * The identity of a request without an authenticated principal.
	 * @param identityHeader the configured identity header, or {@code null} when none is
	 * @param headerValue the identity header's value on the request, or {@code null}
	 * @return the identity, or {@code null} when the request is unidentified
	 */
	public static @Nullable String fromHeader(@Nullable String identityHeader, @Nullable String headerValue) {
		if (identityHeader == null) {
			return ANONYMOUS;
		}
		return (headerValue != null && !headerValue.isBlank()) ? headerIdentity(headerValue) : null;
	}

	/**
	 * {@return the identity of a request whose authenticated principal has {@code name}}
	 * @param name the principal's name
	 */
	public static String principalIdentity(String name) {
		return "principal:" + name;
	}

	/**
	 * {@return the identity of an unauthenticated request whose identity header has {@code value}}
	 * @param value the identity header's value
	 */
	public static String headerIdentity(String value) {
		return "header:" + sha256(value);
	}

	private static String sha256(String value) {
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			return HexFormat.of().formatHex(digest.digest(value.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
