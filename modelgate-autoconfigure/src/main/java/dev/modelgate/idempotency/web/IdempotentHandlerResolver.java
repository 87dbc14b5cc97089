package dev.modelgate.idempotency.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.StringUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.CanonicalBody;

/**
 * Finds the {@code @Idempotent} handler a request is bound for, before the DispatcherServlet runs.
 *
 * <p>At start-up it collects the annotated handler methods. Per request it first tests only their
 * mapping conditions, so that a request to any other endpoint costs a few condition checks and
 * nothing else; only a request that matches an annotated mapping goes through full handler
 * resolution, which settles the case where a more specific unannotated mapping wins.
 */
public class IdempotentHandlerResolver implements SmartInitializingSingleton {

	private final Supplier<RequestMappingHandlerMapping> handlerMappingSupplier;

	private final Defaults defaults;

	private RequestMappingHandlerMapping handlerMapping;

	private volatile List<Candidate> candidates = List.of();

	/**
	 * @param handlerMapping supplies the application's handler mapping once every singleton exists
	 * (the filter is created before Spring MVC's infrastructure); may supply {@code null} when there
	 * is none
	 * @param defaults the global values annotations fall back to
	 */
	public IdempotentHandlerResolver(Supplier<RequestMappingHandlerMapping> handlerMapping, Defaults defaults) {
		this.handlerMappingSupplier = handlerMapping;
		this.defaults = defaults;
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.handlerMapping = this.handlerMappingSupplier.get();
		if (this.handlerMapping == null) {
			return;
		}
		List<Candidate> found = new ArrayList<>();
		for (Map.Entry<RequestMappingInfo, HandlerMethod> entry : this.handlerMapping.getHandlerMethods().entrySet()) {
			HandlerMethod handler = entry.getValue();
			Idempotent annotation = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), Idempotent.class);
			if (annotation == null) {
				annotation = AnnotatedElementUtils.findMergedAnnotation(handler.getBeanType(), Idempotent.class);
			}
			if (annotation != null) {
				found.add(new Candidate(entry.getKey(), handler, endpoint(annotation, handler)));
			}
		}
		this.candidates = List.copyOf(found);
	}

	/** Whether any handler is annotated at all. */
	public boolean hasIdempotentHandlers() {
		return !this.candidates.isEmpty();
	}

	/**
	 * @return the endpoint the request is bound for, or {@code null} when its handler is not
	 * {@code @Idempotent}
	 */
	public IdempotentEndpoint resolve(HttpServletRequest request) throws Exception {
		if (this.candidates.isEmpty()) {
			return null;
		}
		IsolatedRequest isolated = new IsolatedRequest(request);
		ServletRequestPathUtils.parseAndCache(isolated);
		if (!matchesAnyCandidate(isolated)) {
			return null;
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

	private boolean matchesAnyCandidate(HttpServletRequest request) {
		for (Candidate candidate : this.candidates) {
			if (candidate.info.getMatchingCondition(request) != null) {
				return true;
			}
		}
		return false;
	}

	private IdempotentEndpoint endpoint(Idempotent annotation, HandlerMethod handler) {
		String where = handler.getShortLogMessage();
		Duration waitTimeout = (annotation.inProgress() == Idempotent.InProgress.WAIT) ? this.defaults.waitTimeout()
				: Duration.ZERO;
		try {
			return new IdempotentEndpoint("", annotation.scope(), annotation.required(),
					duration(annotation.ttl(), this.defaults.ttl(), "ttl", where),
					duration(annotation.leaseTtl(), this.defaults.leaseTtl(), "leaseTtl", where), waitTimeout,
					CanonicalBody.pointers(annotation.ignoreFields()), annotation.onStoreFailure());
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("@Idempotent on " + where + ": " + ex.getMessage(), ex);
		}
	}

	private static Duration duration(String value, Duration fallback, String attribute, String where) {
		if (!StringUtils.hasText(value)) {
			return fallback;
		}
		Duration duration;
		try {
			duration = DurationStyle.detectAndParse(value);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(attribute + " '" + value + "' is not a duration such as 30s or 24h");
		}
		if (duration.isNegative() || duration.isZero()) {
			throw new IllegalArgumentException(attribute + " must be positive, was '" + value + "'");
		}
		return duration;
	}

	/**
	 * The global values an annotation falls back to.
	 *
	 * @param ttl how long completed responses are kept
	 * @param leaseTtl how long a lease lasts between heartbeats
	 * @param waitTimeout how long a duplicate waits on {@code inProgress = WAIT} endpoints
	 */
	public record Defaults(Duration ttl, Duration leaseTtl, Duration waitTimeout) {
	}

	private record Candidate(RequestMappingInfo info, HandlerMethod handler, IdempotentEndpoint endpoint) {
	}

	/**
	 * Keeps the attributes handler resolution writes (matched pattern, path variables, parsed path)
	 * away from the real request, which the DispatcherServlet resolves again on its own.
	 */
	private static final class IsolatedRequest extends HttpServletRequestWrapper {

		private final Map<String, Object> attributes = new java.util.HashMap<>(8);

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
