package dev.modelgate.idempotency.web.servlet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.cors.CorsUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.web.EndpointDefaults;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.internal.AnnotatedEndpoints;
import dev.modelgate.idempotency.web.internal.LiteralPaths;

/**
 * Finds the {@code @Idempotent} handler a request is bound for, before the DispatcherServlet runs.
 *
 * <p>At start-up it collects the annotated handler methods. Per request, {@link #mayResolve} first
 * compares the method and raw path with the annotated literal routes, without allocating, so that a
 * request to any other endpoint costs a few string comparisons and nothing else. A request that may
 * be bound for an annotated handler has its mapping conditions tested; when it matches an annotated
 * route that no other mapping shares, that handler is certain to win and is used directly, otherwise
 * full handler resolution settles which handler (perhaps a more specific unannotated one) wins.
 *
 * <p>Routes idempotent without an annotation (declared by configuration, or functional routes with
 * the {@link IdempotentRoute} attribute) are resolved after the annotated handlers, with a pre-check
 * of their own that is as cheap.
 */
public class IdempotentHandlerResolver implements SmartInitializingSingleton {

	private final Supplier<RequestMappingHandlerMapping> handlerMappingSupplier;

	private final EndpointDefaults defaults;

	private RequestMappingHandlerMapping handlerMapping;

	private volatile List<Candidate> candidates = List.of();

	/**
	 * The annotated routes, to rule requests out by method and path; {@code null} when some annotated
	 * mapping has a pattern (variables, wildcards) that a raw path cannot be compared with.
	 */
	private volatile LiteralRoute[] literalRoutes = new LiteralRoute[0];

	private volatile boolean keyRequired;

	private List<DeclaredRoute> declaredRoutes = List.of();

	private Supplier<List<HandlerMapping>> handlerMappings = List::of;

	/** The idempotent routes without an annotated handler; an annotated handler wins over them. */
	private volatile RouteResolver routes = RouteResolver.NONE;

	/**
	 * @param handlerMapping supplies the application's handler mapping once every singleton exists
	 * (the filter is created before Spring MVC's infrastructure); may supply {@code null} when there
	 * is none
	 * @param defaults the global values annotations fall back to
	 */
	public IdempotentHandlerResolver(Supplier<RequestMappingHandlerMapping> handlerMapping, EndpointDefaults defaults) {
		this.handlerMappingSupplier = handlerMapping;
		this.defaults = defaults;
	}

	/**
	 * Routes made idempotent by configuration, covered whatever handler serves them; an annotated
	 * handler or an idempotent functional route that serves a request wins over them.
	 * @param declaredRoutes the routes, in order: the first that matches a request applies
	 */
	public void setDeclaredRoutes(List<DeclaredRoute> declaredRoutes) {
		this.declaredRoutes = List.copyOf(declaredRoutes);
	}

	/**
	 * The application's handler mappings, in the DispatcherServlet's order, for the functional routes
	 * that carry an {@link IdempotentRoute} attribute; without them such routes are not found.
	 * @param handlerMappings supplies the handler mappings once every singleton exists
	 */
	public void setHandlerMappings(Supplier<List<HandlerMapping>> handlerMappings) {
		this.handlerMappings = handlerMappings;
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.routes = RouteResolver.of(this.declaredRoutes, this.handlerMappings.get(), this.defaults);
		this.keyRequired = this.routes.hasKeyRequiredRoutes();
		this.handlerMapping = this.handlerMappingSupplier.get();
		if (this.handlerMapping == null) {
			return;
		}
		Map<RequestMappingInfo, HandlerMethod> mappings = this.handlerMapping.getHandlerMethods();
		LiteralPaths literalPaths = LiteralPaths
			.count(mappings.keySet().stream().map(RequestMappingInfo::getDirectPaths).toList());
		List<Candidate> found = new ArrayList<>();
		for (Map.Entry<RequestMappingInfo, HandlerMethod> entry : mappings.entrySet()) {
			HandlerMethod handler = entry.getValue();
			Idempotent annotation = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), Idempotent.class);
			if (annotation == null) {
				annotation = AnnotatedElementUtils.findMergedAnnotation(handler.getBeanType(), Idempotent.class);
			}
			if (annotation != null) {
				RequestMappingInfo info = entry.getKey();
				found.add(new Candidate(info, handler, endpoint(annotation, handler), isUnrivalled(info, literalPaths)));
			}
		}
		this.candidates = List.copyOf(found);
		this.literalRoutes = literalRoutes(found);
		this.keyRequired |= found.stream().anyMatch((candidate) -> candidate.endpoint.required());
	}

	/**
	 * Whether every path of the mapping is literal and mapped by no other handler: Spring MVC then
	 * picks it for any request its conditions match (a literal path is the most specific there is).
	 */
	private static boolean isUnrivalled(RequestMappingInfo info, LiteralPaths literalPaths) {
		return info.getPathPatternsCondition() != null
				&& literalPaths.isUnrivalled(info.getDirectPaths(), info.getPatternValues());
	}

	private static LiteralRoute[] literalRoutes(List<Candidate> candidates) {
		List<LiteralRoute> routes = new ArrayList<>();
		for (Candidate candidate : candidates) {
			RequestMappingInfo info = candidate.info;
			if (!isLiteral(info)) {
				return null;
			}
			Set<String> methods = new HashSet<>();
			for (RequestMethod method : info.getMethodsCondition().getMethods()) {
				methods.add(method.name());
				if (method == RequestMethod.GET) {
					methods.add(RequestMethod.HEAD.name());
				}
			}
			for (String path : info.getDirectPaths()) {
				routes.add(new LiteralRoute(Set.copyOf(methods), path));
			}
		}
		return routes.toArray(new LiteralRoute[0]);
	}

	/** Whether the mapping's paths are all plain text (no variables, wildcards or legacy patterns). */
	private static boolean isLiteral(RequestMappingInfo info) {
		return info.getPathPatternsCondition() != null
				&& LiteralPaths.isLiteral(info.getDirectPaths(), info.getPatternValues());
	}

	/** {@return whether any handler is annotated at all, or any route idempotent without an annotation} */
	public boolean hasIdempotentHandlers() {
		return !this.candidates.isEmpty() || !this.routes.isEmpty();
	}

	/** {@return whether any idempotent handler or route refuses requests without a key ({@code required = true})} */
	public boolean hasKeyRequiredHandlers() {
		return this.keyRequired;
	}

	/**
	 * Whether the request could be bound for an {@code @Idempotent} handler, told from its method and
	 * raw path alone and without allocating, so that a filter can let every other request go at once.
	 * @param request the incoming request
	 * @return {@code false} when it certainly is not; {@code true} when {@link #resolve} has to decide
	 */
	public boolean mayResolve(HttpServletRequest request) {
		if (this.routes.mayMatch(request)) {
			return true;
		}
		if (this.candidates.isEmpty()) {
			return false;
		}
		LiteralRoute[] routes = this.literalRoutes;
		if (routes == null) {
			return true;
		}
		String uri = request.getRequestURI();
		if (uri == null || uri.indexOf('%') >= 0 || uri.indexOf(';') >= 0 || uri.endsWith("/")) {
			// Escaped characters, path parameters and trailing slashes: Spring's matching decides.
			return true;
		}
		String method = request.getMethod();
		for (LiteralRoute route : routes) {
			if (route.mayMatch(method, uri)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Finds the handler the request is bound for, as the dispatcher will.
	 * @param request the incoming request
	 * @return the endpoint the request is bound for, or {@code null} when neither its handler is
	 * {@code @Idempotent} nor its route idempotent
	 * @throws Exception when the handler mappings fail to look the request up
	 */
	public IdempotentEndpoint resolve(HttpServletRequest request) throws Exception {
		IdempotentEndpoint annotated = resolveAnnotated(request);
		return (annotated != null || this.routes.isEmpty()) ? annotated : this.routes.resolve(request);
	}

	private IdempotentEndpoint resolveAnnotated(HttpServletRequest request) throws Exception {
		if (this.candidates.isEmpty()) {
			return null;
		}
		IsolatedRequest isolated = new IsolatedRequest(request);
		ServletRequestPathUtils.parseAndCache(isolated);
		Candidate matched = null;
		RequestMappingInfo matchedInfo = null;
		int matches = 0;
		for (Candidate candidate : this.candidates) {
			RequestMappingInfo info = candidate.info.getMatchingCondition(isolated);
			if (info != null) {
				matched = candidate;
				matchedInfo = info;
				matches++;
			}
		}
		if (matches == 0) {
			return null;
		}
		// HEAD and CORS pre-flight requests are ranked differently by Spring MVC: resolve those fully.
		if (matches == 1 && matched.unrivalled && !"HEAD".equals(request.getMethod())
				&& !CorsUtils.isPreFlightRequest(request)) {
			return matched.endpoint.withRoute(matchedInfo.getPathPatternsCondition().getFirstPattern().getPatternString());
		}
		HandlerExecutionChain chain = this.handlerMapping.getHandler(isolated);
		if (chain == null || !(chain.getHandler() instanceof HandlerMethod handler)) {
			return null;
		}
		for (Candidate candidate : this.candidates) {
			if (candidate.handler.getMethod().equals(handler.getMethod())) {
				Object pattern = isolated.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
				String route = (pattern != null) ? pattern.toString() : candidate.info.toString();
				return candidate.endpoint.withRoute(route);
			}
		}
		return null;
	}

	private IdempotentEndpoint endpoint(Idempotent annotation, HandlerMethod handler) {
		return AnnotatedEndpoints.of(annotation, handler, this.defaults);
	}

	private record Candidate(RequestMappingInfo info, HandlerMethod handler, IdempotentEndpoint endpoint,
			boolean unrivalled) {
	}

	/**
	 * A literal path of an annotated handler and its methods (empty: any), compared with the raw URI.
	 */
	private record LiteralRoute(Set<String> methods, String path) {

		/**
		 * The URI may carry a context path or servlet prefix before the route, and the path matcher may
		 * be set to ignore case, so a case-insensitive suffix is what can safely rule a request out.
		 */
		boolean mayMatch(String method, String uri) {
			return (this.methods.isEmpty() || this.methods.contains(method))
					&& uri.regionMatches(true, uri.length() - this.path.length(), this.path, 0, this.path.length());
		}

	}

	/**
	 * Keeps the attributes handler resolution writes (matched pattern, path variables, parsed path)
	 * away from the real request, which the DispatcherServlet resolves again on its own.
	 */
	static final class IsolatedRequest extends HttpServletRequestWrapper {

		private final Map<String, Object> attributes = new HashMap<>(8);

		IsolatedRequest(HttpServletRequest request) {
			super(request);
		}

		@Override
		public Object getAttribute(String name) {
			return this.attributes.containsKey(name) ? this.attributes.get(name) : super.getAttribute(name);
		}

		@Override
		public void setAttribute(String name, Object value) {
			this.attributes.put(name, value);
		}

		@Override
		public void removeAttribute(String name) {
			this.attributes.put(name, null);
		}

	}

}
