package dev.modelgate.idempotency.web.servlet;

import java.security.Principal;
import java.util.Collections;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.web.internal.ClientIdentities;

/**
 * The authenticated principal's name when there is one; else the SHA-256 of the configured identity
 * header (for example {@code Authorization}, so that two API keys never share a key space). A request
 * with neither gets one shared anonymous identity when no identity header is configured; when one is,
 * it gets none, and the filter applies its policy for unidentified clients (refuse by default). The
 * identities are spelled as {@link ClientIdentities} says, the same on every web stack.
 */
public class DefaultClientIdentityResolver implements ClientIdentityResolver {

	/** The identity shared by requests with neither a principal nor the identity header. */
	public static final String ANONYMOUS = ClientIdentities.ANONYMOUS;

	private final @Nullable String identityHeader;

	/**
	 * @param identityHeader the header that identifies unauthenticated clients, or {@code null} to give
	 * every request without a principal the shared {@link #ANONYMOUS} identity
	 */
	public DefaultClientIdentityResolver(@Nullable String identityHeader) {
		this.identityHeader = identityHeader;
	}

	@Override
	public @Nullable String resolve(HttpServletRequest request) {
		Principal principal = request.getUserPrincipal();
		List<String> values = (this.identityHeader != null) ? Collections.list(request.getHeaders(this.identityHeader))
				: List.of();
		return ClientIdentities.of((principal != null) ? principal.getName() : null, this.identityHeader, values);
	}

	/**
	 * The identity this resolver gives a request whose authenticated principal has {@code name}, so
	 * that tools (the Actuator endpoint) can find a client's records the way the filter does.
	 * @param name the principal's name
	 * @return the client identity
	 */
	public static String principalIdentity(String name) {
		return ClientIdentities.principalIdentity(name);
	}

	/**
	 * The identity this resolver gives an unauthenticated request whose identity header has
	 * {@code value}: only its SHA-256 takes part, so the value itself is never kept.
	 * @param value the identity header's value
	 * @return the client identity
	 */
	public static String headerIdentity(String value) {
		return ClientIdentities.headerIdentity(value);
	}

}
