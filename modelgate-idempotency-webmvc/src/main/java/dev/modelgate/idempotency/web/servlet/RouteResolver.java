package dev.modelgate.idempotency.web.servlet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;

import org.springframework.http.server.PathContainer;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.support.RouterFunctionMapping;
import org.springframework.web.util.ServletRequestPathUtils;

import dev.modelgate.idempotency.web.EndpointDefaults;
import dev.modelgate.idempotency.web.IdempotentEndpoint;

/**
 * Finds the idempotent route without an annotated handler that a request is bound for: a functional
 * route that carries an {@link IdempotentRoute} attribute, else a {@link DeclaredRoute} from
 * configuration. Functional routes are looked up through the handler mappings, declared ones matched
 * by their path pattern.
 */
final class RouteResolver {

	static final RouteResolver NONE = new RouteResolver();

	private final Declared[] declared;

	/** Idempotent functional routes by method ({@code ""}: any) and then reported pattern. */
	private final Map<String, Map<String, IdempotentEndpoint>> functional;

	private final List<HandlerMapping> handlerMappings;

	private final boolean keyRequired;

	private RouteResolver() {
		this.declared = new Declared[0];
		this.functional = Map.of();
		this.handlerMappings = List.of();
		this.keyRequired = false;
	}

	/**
	 * @param declared the routes of the configuration, first match wins
	 * @param handlerMappings the application's handler mappings in the DispatcherServlet's order
	 * @param functionalRoutes the routes of every {@link RouterFunctionMapping} among them
	 * @param defaults the global values the settings fall back to
	 * @throws InvalidIdempotentRouteException when an idempotent functional route has no path pattern
	 * or cannot be told apart from another route
	 */
	RouteResolver(List<DeclaredRoute> declared, List<HandlerMapping> handlerMappings,
			List<FunctionalRouteCollector.Route> functionalRoutes, EndpointDefaults defaults) {
		this.declared = declared.stream()
			.map((route) -> new Declared(route,
					route.settings().endpoint(defaults).withRoute(route.pattern().getPatternString())))
			.toArray(Declared[]::new);
		this.functional = functional(functionalRoutes, defaults);
		this.handlerMappings = List.copyOf(handlerMappings);
		this.keyRequired = declared.stream().anyMatch((route) -> route.settings().isRequired())
				|| functionalRoutes.stream().anyMatch((route) -> route.settings() != null && route.settings().isRequired());
	}

	/**
	 * @param declared the routes of the configuration
	 * @param handlerMappings the application's handler mappings in the DispatcherServlet's order
	 * @param defaults the global values the settings fall back to
	 * @return the resolver, {@link #NONE} when no route is idempotent
	 */
	static RouteResolver of(List<DeclaredRoute> declared, List<HandlerMapping> handlerMappings,
			EndpointDefaults defaults) {
		List<FunctionalRouteCollector.Route> functionalRoutes = new ArrayList<>();
		for (HandlerMapping mapping : handlerMappings) {
			if (mapping instanceof RouterFunctionMapping routerFunctionMapping) {
				RouterFunction<?> routerFunction = routerFunctionMapping.getRouterFunction();
				if (routerFunction != null) {
					functionalRoutes.addAll(FunctionalRouteCollector.collect(routerFunction));
				}
			}
		}
		boolean anyFunctional = functionalRoutes.stream().anyMatch((route) -> route.settings() != null);
		if (declared.isEmpty() && !anyFunctional) {
			return NONE;
		}
		return new RouteResolver(declared, anyFunctional ? handlerMappings : List.of(),
				anyFunctional ? functionalRoutes : List.of(), defaults);
	}

	private static Map<String, Map<String, IdempotentEndpoint>> functional(List<FunctionalRouteCollector.Route> routes,
			EndpointDefaults defaults) {
		Map<String, Map<String, IdempotentEndpoint>> byMethod = new HashMap<>();
		for (FunctionalRouteCollector.Route route : routes) {
			IdempotentRoute settings = route.settings();
			if (settings == null) {
				continue;
			}
			if (route.patterns().isEmpty()) {
				throw new InvalidIdempotentRouteException(route.description(), "The idempotent functional route "
						+ route.description()
						+ " has no path pattern, by which the filter finds the route a request is bound for: "
						+ "give it a path predicate (such as POST(\"/orders\", handler)) or declare it in "
						+ "modelgate.idempotency.routes");
			}
			for (FunctionalRouteCollector.Route other : routes) {
				if (other != route && !sameSettings(other, route) && other.sharesMethodWith(route)
						&& other.patterns().stream().anyMatch(route.patterns()::contains)) {
					throw new InvalidIdempotentRouteException(route.description(), "The idempotent functional route "
						+ route.description()
							+ " and the route " + other.description() + " share a method and a path pattern, so "
							+ "the filter cannot tell which one a request is bound for: give them different "
							+ "paths or methods, or the same idempotency settings");
				}
			}
			IdempotentEndpoint endpoint = settings.endpoint(defaults);
			Set<String> methods = route.methods().isEmpty() ? Set.of("") : route.methods();
			for (String method : methods) {
				for (String pattern : route.patterns()) {
					byMethod.computeIfAbsent(method, (key) -> new HashMap<>()).putIfAbsent(pattern,
							endpoint.withRoute(pattern));
				}
			}
		}
		return byMethod;
	}

	/** Routes under one nest share its settings object: they are not told apart, and need not be. */
	private static boolean sameSettings(FunctionalRouteCollector.Route a, FunctionalRouteCollector.Route b) {
		return a.settings() == b.settings();
	}

	boolean isEmpty() {
		return this == NONE;
	}

	boolean hasKeyRequiredRoutes() {
		return this.keyRequired;
	}

	/**
	 * @param request the incoming request
	 * @return the endpoint of the route it is bound for, or {@code null}
	 * @throws Exception when a handler mapping fails to look the request up
	 */
	@Nullable IdempotentEndpoint resolve(HttpServletRequest request) throws Exception {
		String method = request.getMethod();
		if (!this.functional.isEmpty()) {
			IdempotentEndpoint endpoint = resolveFunctional(request, method);
			if (endpoint != null) {
				return endpoint;
			}
		}
		if (this.declared.length > 0) {
			PathContainer path = ServletRequestPathUtils.parse(request).pathWithinApplication();
			for (Declared route : this.declared) {
				if (route.route().matches(method, path)) {
					return route.endpoint();
				}
			}
		}
		return null;
	}

	/**
	 * Looks the request up as the DispatcherServlet will, in its handler mappings' order: only when a
	 * {@link RouterFunctionMapping} serves it is the reported pattern one of its routes'.
	 */
	private @Nullable IdempotentEndpoint resolveFunctional(HttpServletRequest request, String method) throws Exception {
		IdempotentHandlerResolver.IsolatedRequest isolated = new IdempotentHandlerResolver.IsolatedRequest(request);
		ServletRequestPathUtils.parseAndCache(isolated);
		for (HandlerMapping mapping : this.handlerMappings) {
			HandlerExecutionChain chain = mapping.getHandler(isolated);
			if (chain == null) {
				continue;
			}
			if (!(mapping instanceof RouterFunctionMapping)) {
				return null;
			}
			Object pattern = isolated.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
			if (pattern == null) {
				return null;
			}
			IdempotentEndpoint endpoint = lookup(method, pattern.toString());
			return (endpoint != null) ? endpoint : lookup("", pattern.toString());
		}
		return null;
	}

	private @Nullable IdempotentEndpoint lookup(String method, String pattern) {
		Map<String, IdempotentEndpoint> byPattern = this.functional.get(method);
		return (byPattern != null) ? byPattern.get(pattern) : null;
	}

	private record Declared(DeclaredRoute route, IdempotentEndpoint endpoint) {
	}

}
