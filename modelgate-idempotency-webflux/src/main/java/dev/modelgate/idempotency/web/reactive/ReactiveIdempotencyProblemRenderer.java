package dev.modelgate.idempotency.web.reactive;

import reactor.core.publisher.Mono;

import org.springframework.web.server.ServerWebExchange;

import dev.modelgate.idempotency.web.IdempotencyProblem;

/**
 * Writes an {@link IdempotencyProblem} to a reactive response: the WebFlux counterpart of
 * {@code IdempotencyProblemRenderer}. The default ({@link ReactiveProblemDetailRenderer}) writes RFC
 * 9457 {@code application/problem+json}; declare a bean of this type to use another format. The
 * engine sets the status, {@code Cache-Control: no-store} and {@code Retry-After} before calling it.
 */
@FunctionalInterface
public interface ReactiveIdempotencyProblemRenderer {

	/**
	 * Writes the problem's body.
	 * @param problem what went wrong with the keyed request
	 * @param exchange the exchange, its response status and headers set
	 * @return completes when the body is written
	 */
	Mono<Void> render(IdempotencyProblem problem, ServerWebExchange exchange);

}
