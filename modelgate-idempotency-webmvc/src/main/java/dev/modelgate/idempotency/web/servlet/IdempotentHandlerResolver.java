package dev.modelgate.idempotency.web.servlet;

import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.web.EndpointDefaults;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.internal.AnnotatedEndpoints;

/**
 * Finds the {@code @Idempotent} handler a request is bound for, before the DispatcherServlet runs.
 *
 * <p>At start-up it collects the annotated handler methods. Per request, Spring MVC's own handler
 * mapping says which handler the request goes to, on a request of its own attributes (the
 * DispatcherServlet resolves the real one again); the request is idempotent when that handler is
 * annotated.
 *
 * <p>Routes idempotent without an annotation (declared by configuration, or functional routes with
 * the {@link IdempotentRoute} attribute) are resolved after the annotated handlers ({@code RouteResolver}).
 */
public class IdempotentHandlerResolver implements SmartInitializingSingleton {

	private final Supplier<RequestMappingHandlerMapping> handlerMappingSupplier;

	private final EndpointDefaults defaults;

	private RequestMappingHandlerMapping handlerMapping;

	private volatile Map<Method, IdempotentEndpoint> annotated = Map.of();

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
		Map<Method, IdempotentEndpoint> found = new HashMap<>();
		for (HandlerMethod handler : this.handlerMapping.getHandlerMethods().values()) {
			Idempotent annotation = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), Idempotent.class);
			if (annotation == null) {
				annotation = AnnotatedElementUtils.findMergedAnnotation(handler.getBeanType(), Idempotent.class);
			}
			if (annotation != null) {
				found.put(handler.getMethod(), AnnotatedEndpoints.of(annotation, handler, this.defaults));
			}
		}
		this.annotated = Map.copyOf(found);
		this.keyRequired |= found.values().stream().anyMatch(IdempotentEndpoint::required);
	}

	/** {@return whether any handler is annotated at all, or any route idempotent without an annotation} */
	public boolean hasIdempotentHandlers() {
		return !this.annotated.isEmpty() || !this.routes.isEmpty();
	}

	/** {@return whether any idempotent handler or route refuses requests without a key ({@code required = true})} */
	public boolean hasKeyRequiredHandlers() {
		return this.keyRequired;
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
		if (this.annotated.isEmpty()) {
			return null;
		}
		IsolatedRequest isolated = new IsolatedRequest(request);
		ServletRequestPathUtils.parseAndCache(isolated);
		HandlerExecutionChain chain = this.handlerMapping.getHandler(isolated);
		if (chain == null || !(chain.getHandler() instanceof HandlerMethod handler)) {
			return null;
		}
		IdempotentEndpoint endpoint = this.annotated.get(handler.getMethod());
		if (endpoint == null) {
			return null;
		}
		Object pattern = isolated.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
		return endpoint.withRoute((pattern != null) ? pattern.toString() : handler.toString());
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
