package dev.modelgate.idempotency.web.servlet;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import org.springframework.core.io.Resource;
import org.springframework.http.HttpMethod;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.RequestPredicate;
import org.springframework.web.servlet.function.RequestPredicates;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * Walks a router function and lists its routes with the path patterns Spring MVC reports for them
 * (nested prefixes combined, as {@code RouterFunctionMapping} does), their methods, and the
 * {@link IdempotentRoute} attribute of the route or of a nest around it.
 */
final class FunctionalRouteCollector implements RouterFunctions.Visitor {

	private final List<Route> routes = new ArrayList<>();

	private final Deque<List<String>> prefixes = new ArrayDeque<>();

	private final Deque<@Nullable IdempotentRoute> nestedSettings = new ArrayDeque<>();

	/** The attributes of the router function visited next (they are visited just before it). */
	private @Nullable Map<String, Object> pending;

	static List<Route> collect(RouterFunction<?> routerFunction) {
		FunctionalRouteCollector collector = new FunctionalRouteCollector();
		routerFunction.accept(collector);
		return collector.routes;
	}

	@Override
	public void startNested(RequestPredicate predicate) {
		Predicate nested = Predicate.of(predicate);
		this.prefixes.push(combine(currentPrefixes(), nested.paths()));
		this.nestedSettings.push(takeSettings());
	}

	@Override
	public void endNested(RequestPredicate predicate) {
		this.prefixes.pop();
		this.nestedSettings.pop();
	}

	@Override
	public void route(RequestPredicate predicate, HandlerFunction<?> handlerFunction) {
		Predicate route = Predicate.of(predicate);
		this.routes.add(new Route(route.methods(), combine(currentPrefixes(), route.paths()), takeSettings(),
				predicate.toString()));
	}

	@Override
	public void resources(Function<ServerRequest, Optional<Resource>> lookupFunction) {
		this.pending = null;
	}

	@Override
	public void attributes(Map<String, Object> attributes) {
		this.pending = attributes;
	}

	@Override
	public void unknown(RouterFunction<?> routerFunction) {
		this.pending = null;
	}

	private @Nullable IdempotentRoute takeSettings() {
		Object own = (this.pending != null) ? this.pending.get(IdempotentRoute.ATTRIBUTE) : null;
		this.pending = null;
		if (own instanceof IdempotentRoute settings) {
			return settings;
		}
		return this.nestedSettings.isEmpty() ? null : this.nestedSettings.peek();
	}

	private List<String> currentPrefixes() {
		return this.prefixes.isEmpty() ? List.of() : this.prefixes.peek();
	}

	private static List<String> combine(List<String> prefixes, List<String> paths) {
		if (prefixes.isEmpty()) {
			return paths;
		}
		if (paths.isEmpty()) {
			return prefixes;
		}
		PathPatternParser parser = PathPatternParser.defaultInstance;
		List<String> combined = new ArrayList<>();
		for (String prefix : prefixes) {
			for (String path : paths) {
				combined.add(parser.parse(prefix).combine(parser.parse(path)).getPatternString());
			}
		}
		return combined;
	}

	/**
	 * One route of the router function.
	 *
	 * @param methods its methods; empty means any
	 * @param patterns the path patterns Spring MVC reports when it matches; empty when it has none
	 * @param settings its idempotency settings, or {@code null} when it is not idempotent
	 * @param description the predicate, for messages
	 */
	record Route(Set<String> methods, List<String> patterns, @Nullable IdempotentRoute settings, String description) {

		boolean sharesMethodWith(Route other) {
			if (this.methods.isEmpty() || other.methods.isEmpty()) {
				return true;
			}
			for (String method : this.methods) {
				if (other.methods.contains(method)) {
					return true;
				}
			}
			return false;
		}

	}

	/** The methods and paths a predicate asks for; paths under a negation are not the route's. */
	private static final class Predicate implements RequestPredicates.Visitor {

		private final Set<String> methods = new HashSet<>();

		private final List<String> paths = new ArrayList<>();

		private int negations;

		static Predicate of(RequestPredicate predicate) {
			Predicate visitor = new Predicate();
			predicate.accept(visitor);
			return visitor;
		}

		Set<String> methods() {
			return Set.copyOf(this.methods);
		}

		List<String> paths() {
			return List.copyOf(this.paths);
		}

		@Override
		public void method(Set<HttpMethod> methods) {
			if (this.negations == 0) {
				methods.forEach((method) -> this.methods.add(method.name()));
			}
		}

		@Override
		public void path(String pattern) {
			if (this.negations == 0) {
				this.paths.add(pattern);
			}
		}

		@Override
		public void pathExtension(String extension) {
		}

		@Override
		public void header(String name, String value) {
		}

		@Override
		public void param(String name, String value) {
		}

		/** Spring Framework 7's API versions; not in 6.2, where this is never called. */
		public void version(String version) {
		}

		@Override
		public void startAnd() {
		}

		@Override
		public void and() {
		}

		@Override
		public void endAnd() {
		}

		@Override
		public void startOr() {
		}

		@Override
		public void or() {
		}

		@Override
		public void endOr() {
		}

		@Override
		public void startNegate() {
			this.negations++;
		}

		@Override
		public void endNegate() {
			this.negations--;
		}

		@Override
		public void unknown(RequestPredicate predicate) {
		}

	}

}
