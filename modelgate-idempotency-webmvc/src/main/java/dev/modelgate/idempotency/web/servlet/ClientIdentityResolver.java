package dev.modelgate.idempotency.web.servlet;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;

/**
 * Says who sent a request, so that two clients never share a key space. The value is only hashed
 * into the scope; it is never stored or logged. Declare a bean of this type to replace the default
 * (principal name, else a hashed header, else refused, skipped or one shared anonymous scope).
 */
@FunctionalInterface
public interface ClientIdentityResolver {

	/**
	 * Names who sent a keyed request. Called before the body is read (a request refused or skipped for
	 * want of an identity is never buffered), so it reads the principal or headers, never the body or
	 * form parameters.
	 * @param request the keyed request
	 * @return the identity, or {@code null} when the request has none although one is required: the
	 * filter then applies its {@link dev.modelgate.idempotency.web.UnidentifiedClients policy}, by default refusing
	 * a keyed request (400 {@code idempotency_client_unidentified}) rather than putting it into a scope
	 * it would share with other unidentified clients
	 */
	@Nullable String resolve(HttpServletRequest request);

}
