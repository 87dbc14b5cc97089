package dev.modelgate.idempotency.web.reactive;

import reactor.core.Fuseable;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import dev.modelgate.idempotency.web.IdempotentEndpoint;

/**
 * Applies the Idempotency-Key state machine to requests bound for {@code @Idempotent} handlers of a
 * WebFlux application, through a {@link ReactiveIdempotencyEngine}; every other request passes
 * untouched (no body buffering, no store call). It answers the status resource's lookups too, when
 * {@code status-path} is set.
 */
public class IdempotencyWebFilter implements WebFilter, Ordered {

	/**
	 * After Spring Security's {@code WebFilterChainProxy} (order -100), so that the authenticated
	 * principal is known when the client identity is resolved: the servlet filter's order.
	 */
	public static final int DEFAULT_ORDER = -90;

	private final ReactiveIdempotentHandlerResolver handlerResolver;

	private final ReactiveIdempotencyEngine engine;

	private int order = DEFAULT_ORDER;

	/**
	 * @param handlerResolver finds the {@code @Idempotent} handler of a request
	 * @param engine applies the state machine
	 */
	public IdempotencyWebFilter(ReactiveIdempotentHandlerResolver handlerResolver, ReactiveIdempotencyEngine engine) {
		this.handlerResolver = handlerResolver;
		this.engine = engine;
	}

	@Override
	public int getOrder() {
		return this.order;
	}

	/** @param order the filter's order; {@link #DEFAULT_ORDER} unless set */
	public void setOrder(int order) {
		this.order = order;
	}

	/**
	 * Requests that no idempotent handler can be bound for, and requests without a key when no
	 * endpoint requires one and nothing follows the decisions, go on at once, before any handler
	 * lookup.
	 */
	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (this.engine.isStatusLookup(exchange.getRequest())) {
			return this.engine.lookUpStatus(exchange);
		}
		if (!this.handlerResolver.hasIdempotentHandlers()
				|| (!this.handlerResolver.hasKeyRequiredHandlers() && this.engine.canSkip(exchange.getRequest()))) {
			return chain.filter(exchange);
		}
		Mono<IdempotentEndpoint> resolved = this.handlerResolver.resolve(exchange);
		if (resolved instanceof Fuseable.ScalarCallable<?> known) {
			// Known at once (an unrivalled annotated route, or none): no operators.
			IdempotentEndpoint endpoint;
			try {
				endpoint = (IdempotentEndpoint) known.call();
			}
			catch (Exception ex) {
				return Mono.error(ex);
			}
			return (endpoint != null) ? this.engine.handle(exchange, endpoint, chain::filter) : chain.filter(exchange);
		}
		return resolved.singleOptional()
			.flatMap((endpoint) -> endpoint.isPresent() ? this.engine.handle(exchange, endpoint.get(), chain::filter)
					: chain.filter(exchange));
	}

}
