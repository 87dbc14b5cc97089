package dev.modelgate.idempotency.web.reactive;

import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.core.io.Resource;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.web.cors.reactive.CorsUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RequestPredicate;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.support.RouterFunctionMapping;
import org.springframework.web.reactive.result.condition.ProducesRequestCondition;
import org.springframework.web.reactive.result.method.AbstractHandlerMethodMapping;
import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.reactive.result.method.RequestMappingInfoHandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebExchangeDecorator;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.web.EndpointDefaults;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.internal.AnnotatedEndpoints;
import dev.modelgate.idempotency.web.internal.LiteralPaths;

/**
 * Finds the {@code @Idempotent} handler a reactive request is bound for, before the
 * {@code DispatcherHandler} runs: at start-up it collects the annotated handler methods of the
 * application's handler mappings. Per request, as the servlet side's resolver does, it first matches
 * the annotated mappings' own conditions: when exactly one matches and it is unrivalled (its paths
 * are literal, no other mapping of its handler mapping has them, and no handler mapping the
 * dispatcher asks first can answer them), that is the handler, answered at once; when none matches,
 * no annotated handler is. Otherwise it asks the mappings, in the dispatcher's order, which handler
 * the request goes to, on an exchange of its own attributes, so that nothing the lookup writes
 * (matched pattern, path variables) reaches the real exchange, which the dispatcher resolves again.
 */
public class ReactiveIdempotentHandlerResolver implements SmartInitializingSingleton {

	private final Supplier<List<HandlerMapping>> handlerMappingsSupplier;

	private final EndpointDefaults defaults;

	private volatile List<HandlerMapping> handlerMappings = List.of();

	private volatile Map<Method, IdempotentEndpoint> annotated = Map.of();

	private volatile List<Route> routes = List.of();

	/**
	 * The annotated mappings' conditions, when every annotated handler is in one
	 * {@link RequestMappingInfoHandlerMapping}; else {@code null}: every request is looked up in full.
	 */
	private volatile @Nullable List<Candidate> candidates;

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
		this.candidates = candidates(mappings, this.annotated);
		updateKeyRequired();
	}

	/**
	 * The annotated mappings to match directly, or {@code null} when they are not all in one
	 * {@link RequestMappingInfoHandlerMapping} (then every request is looked up in full).
	 */
	private static @Nullable List<Candidate> candidates(List<HandlerMapping> mappings,
			Map<Method, IdempotentEndpoint> annotated) {
		List<Candidate> candidates = new ArrayList<>();
		for (int index = 0; index < mappings.size(); index++) {
			if (!(mappings.get(index) instanceof RequestMappingInfoHandlerMapping mapping)) {
				continue;
			}
			Map<RequestMappingInfo, HandlerMethod> methods = mapping.getHandlerMethods();
			if (methods.values().stream().noneMatch((handler) -> annotated.containsKey(handler.getMethod()))) {
				continue;
			}
			if (!candidates.isEmpty()) {
				return null;
			}
			LiteralPaths literalPaths = LiteralPaths
				.count(methods.keySet().stream().map(RequestMappingInfo::getDirectPaths).toList());
			// A path matched regardless of case could be another spelling of a path asked first.
			List<HandlerMapping> askedFirst = mapping.getPathPatternParser().isCaseSensitive()
					? mappings.subList(0, index) : null;
			for (Map.Entry<RequestMappingInfo, HandlerMethod> entry : methods.entrySet()) {
				IdempotentEndpoint endpoint = annotated.get(entry.getValue().getMethod());
				if (endpoint != null) {
					RequestMappingInfo info = entry.getKey();
					candidates.add(new Candidate(info, endpoint, isUnrivalled(info, literalPaths, askedFirst)));
				}
			}
		}
		return (candidates.size() == annotated.size()) ? List.copyOf(candidates) : null;
	}

	/**
	 * Whether every path of the mapping is literal, mapped by no other handler of its handler mapping,
	 * and answered by none of the handler mappings the dispatcher asks first ({@code null} when that
	 * cannot be told: paths matched regardless of case): WebFlux then picks it for any request its
	 * conditions match (a literal path is the most specific there is).
	 */
	private static boolean isUnrivalled(RequestMappingInfo info, LiteralPaths literalPaths,
			@Nullable List<HandlerMapping> askedFirst) {
		Set<String> paths = info.getDirectPaths();
		List<String> patterns = info.getPatternsCondition()
			.getPatterns()
			.stream()
			.map(PathPattern::getPatternString)
			.toList();
		if (askedFirst == null || !literalPaths.isUnrivalled(paths, patterns)) {
			return false;
		}
		for (String path : paths) {
			for (HandlerMapping mapping : askedFirst) {
				if (mayAnswer(mapping, path)) {
					return false;
				}
			}
		}
		return true;
	}

	/**
	 * Whether a handler mapping the dispatcher asks before the annotated ones may answer a path (or
	 * the path with a trailing slash): functional routes unless none of their path predicates matches
	 * it ({@link RouterPaths}), request mappings with a pattern that matches it (the actuator's, for
	 * example), and any mapping of another kind.
	 */
	private static boolean mayAnswer(HandlerMapping mapping, String path) {
		if (mapping instanceof RouterFunctionMapping router) {
			RouterFunction<?> routes = router.getRouterFunction();
			return routes != null && RouterPaths.mayRoute(routes, path);
		}
		if (!(mapping instanceof RequestMappingInfoHandlerMapping requestMappings)) {
			return true;
		}
		for (RequestMappingInfo info : requestMappings.getHandlerMethods().keySet()) {
			for (PathPattern pattern : info.getPatternsCondition().getPatterns()) {
				if (RouterPaths.matches(pattern, path)) {
					return true;
				}
			}
		}
		return false;
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
		List<Candidate> candidates = this.candidates;
		if (candidates != null && exchange.getRequest().getMethod() != HttpMethod.HEAD
				&& !CorsUtils.isPreFlightRequest(exchange.getRequest())) {
			Mono<IdempotentEndpoint> matched = matchDirectly(candidates, exchange);
			if (matched != null) {
				return matched;
			}
		}
		return lookUp(exchange);
	}

	/**
	 * The annotated mappings' own conditions: none matches (no annotated handler), or one unrivalled
	 * one does (that handler); else {@code null}, for the full lookup to settle. HEAD and CORS
	 * pre-flight requests, which WebFlux ranks differently, are always looked up in full.
	 */
	private static @Nullable Mono<IdempotentEndpoint> matchDirectly(List<Candidate> candidates,
			ServerWebExchange exchange) {
		Candidate matched = null;
		RequestMappingInfo matchedInfo = null;
		int matches = 0;
		try {
			for (Candidate candidate : candidates) {
				RequestMappingInfo info = candidate.info().getMatchingCondition(exchange);
				if (info != null) {
					matched = candidate;
					matchedInfo = info;
					matches++;
				}
			}
		}
		finally {
			// The produces condition keeps the request's accepted media types here, as the lookup clears.
			ProducesRequestCondition.clearMediaTypesAttribute(exchange);
		}
		if (matches == 0) {
			return Mono.empty();
		}
		if (matches == 1 && matched.unrivalled()) {
			return Mono.just(matched.endpoint()
				.withRoute(matchedInfo.getPatternsCondition().getPatterns().iterator().next().getPatternString()));
		}
		return null;
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
	 * Whether functional routes may serve a path, read from their predicates without a request: a route
	 * may, unless its predicate needs a path pattern that does not match (in an "and", outside any
	 * "or" or negation). Nested routes, resources and anything the visitors cannot see may serve any path.
	 */
	private static final class RouterPaths implements RouterFunctions.Visitor, RequestPredicates.Visitor {

		private final String path;

		/** One entry per open "and", "or" or negation: whether it may still match. */
		private final Deque<Boolean> open = new ArrayDeque<>();

		/** What the predicate read so far says (the innermost open group's value, or the last leaf's). */
		private boolean mayMatch;

		private boolean mayRoute;

		private RouterPaths(String path) {
			this.path = path;
		}

		static boolean mayRoute(RouterFunction<?> routes, String path) {
			RouterPaths visitor = new RouterPaths(path);
			routes.accept(visitor);
			return visitor.mayRoute;
		}

		static boolean matches(PathPattern pattern, String path) {
			return pattern.matches(PathContainer.parsePath(path)) || pattern.matches(PathContainer.parsePath(path + "/"));
		}

		private void leaf(boolean mayMatch) {
			this.mayMatch = mayMatch;
		}

		@Override
		public void route(RequestPredicate predicate, HandlerFunction<?> handlerFunction) {
			this.open.clear();
			this.mayMatch = true;
			predicate.accept(this);
			this.mayRoute |= this.mayMatch;
		}

		@Override
		public void startNested(RequestPredicate predicate) {
			this.mayRoute = true;
		}

		@Override
		public void endNested(RequestPredicate predicate) {
		}

		@Override
		public void resources(Function<ServerRequest, Mono<Resource>> lookupFunction) {
			this.mayRoute = true;
		}

		@Override
		public void attributes(Map<String, Object> attributes) {
		}

		@Override
		public void unknown(RouterFunction<?> routerFunction) {
			this.mayRoute = true;
		}

		@Override
		public void path(String pattern) {
			leaf(matches(PathPatternParser.defaultInstance.parse(pattern), this.path));
		}

		@Override
		public void method(Set<HttpMethod> methods) {
			leaf(true);
		}

		@Override
		public void pathExtension(String extension) {
			leaf(true);
		}

		@Override
		public void header(String name, String value) {
			leaf(true);
		}

		@Override
		public void queryParam(String name, String value) {
			leaf(true);
		}

		/** Spring Framework 7's API versions; never called on 6.2. */
		public void version(String version) {
			leaf(true);
		}

		@Override
		public void unknown(RequestPredicate predicate) {
			leaf(true);
		}

		@Override
		public void startAnd() {
			this.open.push(true);
		}

		@Override
		public void and() {
			this.open.push(this.open.pop() && this.mayMatch);
		}

		@Override
		public void endAnd() {
			this.mayMatch = this.open.pop() && this.mayMatch;
		}

		@Override
		public void startOr() {
			this.open.push(false);
		}

		@Override
		public void or() {
			this.open.push(this.open.pop() || this.mayMatch);
		}

		@Override
		public void endOr() {
			this.mayMatch = this.open.pop() || this.mayMatch;
		}

		@Override
		public void startNegate() {
			this.open.push(true);
		}

		@Override
		public void endNegate() {
			this.open.pop();
			this.mayMatch = true;
		}

	}

	/**
	 * An annotated mapping, matched directly.
	 *
	 * @param info its conditions
	 * @param endpoint its settings
	 * @param unrivalled whether it wins whenever its conditions match
	 */
	private record Candidate(RequestMappingInfo info, IdempotentEndpoint endpoint, boolean unrivalled) {
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
