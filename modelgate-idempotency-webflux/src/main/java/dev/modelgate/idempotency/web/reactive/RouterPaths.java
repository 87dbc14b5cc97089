package dev.modelgate.idempotency.web.reactive;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import reactor.core.publisher.Mono;

import org.springframework.core.io.Resource;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RequestPredicate;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * Whether functional routes may serve a path, read from their predicates without a request: a route
 * may, unless its predicate needs a path pattern that does not match (in an "and", outside any
 * "or" or negation). Nested routes, resources and anything the visitors cannot see may serve any path.
 */
final class RouterPaths implements RouterFunctions.Visitor, RequestPredicates.Visitor {

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
