package dev.modelgate.idempotency.web;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Says who sent a request, so that two clients never share a key space. The value is only hashed
 * into the scope; it is never stored or logged. Declare a bean of this type to replace the default
 * (principal name, else a hashed header, else one shared anonymous scope).
 */
@FunctionalInterface
public interface ClientIdentityResolver {

	String resolve(HttpServletRequest request);

}
