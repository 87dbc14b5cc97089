package dev.modelgate.idempotency.web.reactive;

import reactor.core.publisher.Mono;

import org.springframework.web.server.ServerWebExchange;

/**
 * Says who sent a request to a reactive application, so that two clients never share a key space:
 * the WebFlux counterpart of {@code ClientIdentityResolver}. The value is only hashed into the
 * scope; it is never stored or logged. Declare a bean of this type to replace the default
 * ({@link DefaultReactiveClientIdentityResolver}).
 */
@FunctionalInterface
public interface ReactiveClientIdentityResolver {

	/**
	 * Names who sent a keyed request. Called before the body is read, so it reads the principal or
	 * headers, never the body.
	 * @param exchange the keyed request's exchange
	 * @return the identity, or empty when the request has none although one is required: the engine
	 * then applies its {@link dev.modelgate.idempotency.web.UnidentifiedClients policy}
	 */
	Mono<String> resolve(ServerWebExchange exchange);

}
