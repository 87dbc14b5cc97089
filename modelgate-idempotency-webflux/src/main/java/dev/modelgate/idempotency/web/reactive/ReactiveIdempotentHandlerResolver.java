package dev.modelgate.idempotency.web.reactive;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.result.method.AbstractHandlerMethodMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebExchangeDecorator;
import org.springframework.web.util.pattern.PathPattern;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.web.EndpointDefaults;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.internal.AnnotatedEndpoints;

/**
 * Finds the {@code @Idempotent} handler a reactive request is bound for, before the
 * {@code DispatcherHandler} runs: at start-up it collects the annotated handler methods of the
 * application's handler mappings. Per request, as the servlet side's resolver does, it first matches
 * the annotated mappings' own conditions ({@code AnnotatedMappings}): when exactly one matches and
 * it is unrivalled (its paths are literal, no other mapping of its handler mapping has them, and no
 * handler mapping the dispatcher asks first can answer them), that is the handler, answered at once;
 * when none matches, no annotated handler is. Otherwise it asks the mappings, in the dispatcher's
 * order, which handler the request goes to, on an exchange of its own attributes, so that nothing
 * the lookup writes (matched pattern, path variables) reaches the real exchange, which the
 * dispatcher resolves again.
 */
public class ReactiveIdempotentHandlerResolver implements SmartInitializingSingleton {

	private final Supplier<List<HandlerMapping>> handlerMappingsSupplier;

	private final EndpointDefaults defaults;

	private volatile List<HandlerMapping> handlerMappings = List.of();

	private volatile Map<Method, IdempotentEndpoint> annotated = Map.of();

	private volatile List<Route> routes = List.of();

	/**
	 * The annotated mappings to match directly, when every annotated handler is in one
	 * {@code RequestMappingInfoHandlerMapping}; else {@code null}: every request is looked up in full.
	 */
	private volatile @Nullable AnnotatedMappings directMatch;

	/** Whether an annotated handler or a route requires a key: asked on every request, so known ahead. */
	private volatile boolean keyRequired;

	/**
	 * @param handlerMappings supplies the application's handler mappings once every singleton exists
	 * @param defaults the global values annotations fall back to
	 */
	public ReactiveIdempotentHandlerResolver(Supplier<List<HandlerMapping>> handlerMappings, EndpointDefaults defaults) {
		this.handlerMappingsSupplier = handlerMappings;
		this.defaults = defaults;
	}

	@Override
	public void afterSingletonsInstantiated() {
		List<HandlerMapping> mappings = new ArrayList<>(this.handlerMappingsSupplier.get());
		AnnotationAwareOrderComparator.sort(mappings);
		Map<Method, IdempotentEndpoint> found = new HashMap<>();
		for (HandlerMapping mapping : mappings) {
			if (mapping instanceof AbstractHandlerMethodMapping<?> methods) {
				for (HandlerMethod handler : methods.getHandlerMethods().values()) {
					Idempotent annotation = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(),
							Idempotent.class);
					if (annotation == null) {
						annotation = AnnotatedElementUtils.findMergedAnnotation(handler.getBeanType(), Idempotent.class);
					}
					if (annotation != null) {
						found.put(handler.getMethod(), endpoint(annotation, handler));
					}
				}
			}
		}
		this.handlerMappings = List.copyOf(mappings);
		this.annotated = Map.copyOf(found);
		this.directMatch = AnnotatedMappings.of(mappings, this.annotated);
		updateKeyRequired();
	}

	/**
	 * Routes made idempotent by configuration, for functional endpoints ({@code RouterFunction}) and
	 * handlers that cannot be annotated. A request that matches one is handled by its settings
	 * whatever handler it is bound for, before any handler lookup; the first match wins.
	 * @param routes the routes
	 */
	public void setRoutes(List<Route> routes) {
		this.routes = List.copyOf(routes);
		updateKeyRequired();
	}

	private void updateKeyRequired() {
		this.keyRequired = this.annotated.values().stream().anyMatch(IdempotentEndpoint::required)
				|| this.routes.stream().anyMatch((route) -> route.endpoint().required());
	}

	/** {@return whether any handler is annotated, or any route configured} */
	public boolean hasIdempotentHandlers() {
		return !this.annotated.isEmpty() || !this.routes.isEmpty();
	}

	/** {@return whether any annotated handler or configured route refuses requests without a key} */
	public boolean hasKeyRequiredHandlers() {
		return this.keyRequired;
	}

	/**
	 * Finds the handler the request is bound for, as the dispatcher will.
	 * @param exchange the incoming exchange
	 * @return the endpoint the request is bound for, or empty when its handler is not
	 * {@code @Idempotent} (or the lookup fails: the dispatcher will meet the same failure and report it)
	 */
	public Mono<IdempotentEndpoint> resolve(ServerWebExchange exchange) {
		for (Route route : this.routes) {
			if (route.matches(exchange)) {
				return Mono.just(route.endpoint());
			}
		}
		if (this.annotated.isEmpty()) {
			return Mono.empty();
		}
		AnnotatedMappings directMatch = this.directMatch;
		Mono<IdempotentEndpoint> matched = (directMatch != null) ? directMatch.match(exchange) : null;
		if (matched != null) {
			return matched;
		}
		return lookUp(exchange);
	}

	/** Asks the handler mappings, in the dispatcher's order, on an exchange of its own attributes. */
	private Mono<IdempotentEndpoint> lookUp(ServerWebExchange exchange) {
		IsolatedExchange isolated = new IsolatedExchange(exchange);
		return Flux.fromIterable(this.handlerMappings)
			.concatMap((mapping) -> mapping.getHandler(isolated))
			.next()
			.flatMap((handler) -> {
				if (!(handler instanceof HandlerMethod method)) {
					return Mono.empty();
				}
				IdempotentEndpoint endpoint = this.annotated.get(method.getMethod());
				if (endpoint == null) {
					return Mono.empty();
				}
				Object pattern = isolated.getAttributes().get(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
				String route = (pattern instanceof PathPattern path) ? path.getPatternString()
						: (pattern != null) ? pattern.toString() : exchange.getRequest().getPath().value();
				return Mono.just(endpoint.withRoute(route));
			})
			.onErrorResume((ex) -> Mono.empty());
	}

	private IdempotentEndpoint endpoint(Idempotent annotation, HandlerMethod handler) {
		return AnnotatedEndpoints.of(annotation, handler, this.defaults);
	}

	/**
	 * A route made idempotent by configuration.
	 *
	 * @param method the HTTP method, for example {@code POST}
	 * @param pattern the path pattern, matched against the path within the application
	 * @param endpoint its settings; its {@code route} names it in metrics, its {@code scopeName} is the
	 * key space
	 */
	public record Route(String method, PathPattern pattern, IdempotentEndpoint endpoint) {

		boolean matches(ServerWebExchange exchange) {
			return this.method.equalsIgnoreCase(exchange.getRequest().getMethod().name())
					&& this.pattern.matches(exchange.getRequest().getPath().pathWithinApplication());
		}

	}

	/** The exchange with attributes of its own, for the lookup. */
	private static final class IsolatedExchange extends ServerWebExchangeDecorator {

		private final Map<String, Object> attributes;

		IsolatedExchange(ServerWebExchange delegate) {
			super(delegate);
			this.attributes = new HashMap<>(delegate.getAttributes());
		}

		@Override
		public Map<String, Object> getAttributes() {
			return this.attributes;
		}

	}

}
