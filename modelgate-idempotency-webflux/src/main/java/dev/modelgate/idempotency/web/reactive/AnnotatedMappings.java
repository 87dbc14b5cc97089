package dev.modelgate.idempotency.web.reactive;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpMethod;
import org.springframework.web.cors.reactive.CorsUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.support.RouterFunctionMapping;
import org.springframework.web.reactive.result.condition.ProducesRequestCondition;
import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.reactive.result.method.RequestMappingInfoHandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.pattern.PathPattern;

import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.internal.LiteralPaths;

/**
 * The annotated mappings, matched by their own conditions without a handler lookup: when none
 * matches a request, no annotated handler serves it; when exactly one does and it is unrivalled
 * (its paths are literal, no other mapping of its handler mapping has them, and no handler mapping
 * the dispatcher asks first can answer them), its handler does. Kept because it pays: it spares
 * most requests a full lookup through every handler mapping, a gateway's route predicates included.
 */
final class AnnotatedMappings {

	private final List<Candidate> candidates;

	private AnnotatedMappings(List<Candidate> candidates) {
		this.candidates = List.copyOf(candidates);
	}

	/**
	 * The annotated mappings to match directly, or {@code null} when they are not all in one
	 * {@link RequestMappingInfoHandlerMapping} (then every request is looked up in full).
	 * @param mappings the handler mappings, in the dispatcher's order
	 * @param annotated the annotated handler methods and their settings
	 */
	static @Nullable AnnotatedMappings of(List<HandlerMapping> mappings, Map<Method, IdempotentEndpoint> annotated) {
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
		return (candidates.size() == annotated.size()) ? new AnnotatedMappings(candidates) : null;
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
	 * Matches the request against the annotated mappings' own conditions.
	 * @return empty when none matches (no annotated handler), the endpoint when one unrivalled one
	 * does; else {@code null}, for the full lookup to settle. HEAD and CORS pre-flight requests, which
	 * WebFlux ranks differently, are always left to the full lookup.
	 */
	@Nullable Mono<IdempotentEndpoint> match(ServerWebExchange exchange) {
		if (exchange.getRequest().getMethod() == HttpMethod.HEAD || CorsUtils.isPreFlightRequest(exchange.getRequest())) {
			return null;
		}
		Candidate matched = null;
		RequestMappingInfo matchedInfo = null;
		int matches = 0;
		try {
			for (Candidate candidate : this.candidates) {
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

	/**
	 * An annotated mapping, matched directly.
	 *
	 * @param info its conditions
	 * @param endpoint its settings
	 * @param unrivalled whether it wins whenever its conditions match
	 */
	private record Candidate(RequestMappingInfo info, IdempotentEndpoint endpoint, boolean unrivalled) {
	}

}
