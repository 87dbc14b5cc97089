package dev.modelgate.idempotency.web.servlet;

import java.util.Locale;
import java.util.Set;

import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import org.springframework.web.util.pattern.PatternParseException;

/**
 * A route made idempotent by configuration rather than by an annotation: an HTTP method and a path
 * pattern, covered whatever handler serves them (an unannotated controller, a functional endpoint, a
 * Spring Cloud Gateway route). No servlet type is involved, so that a reactive filter can use it too.
 *
 * @param method the HTTP method
 * @param pattern the path pattern, matched against the path within the application (after the
 * context path and the DispatcherServlet's mapping)
 * @param settings what the annotation would say
 */
public record DeclaredRoute(HttpMethod method, PathPattern pattern, IdempotentRoute settings) {

	private static final Set<HttpMethod> METHODS = Set.of(HttpMethod.values());

	/**
	 * Reads a route as configuration gives it.
	 * @param method a standard HTTP method, such as {@code POST} (any case)
	 * @param path a path pattern, such as {@code /orders/{id}}
	 * @param settings what the annotation would say
	 * @return the route
	 * @throws IllegalArgumentException naming what is wrong, when the method is not a standard one or
	 * the pattern does not parse
	 */
	public static DeclaredRoute of(String method, String path, IdempotentRoute settings) {
		return new DeclaredRoute(method(method), pattern(path), settings);
	}

	/**
	 * @param method a standard HTTP method name, any case
	 * @return the method
	 * @throws IllegalArgumentException when it is not one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, TRACE
	 */
	public static HttpMethod method(String method) {
		HttpMethod parsed = (method != null) ? HttpMethod.valueOf(method.trim().toUpperCase(Locale.ROOT)) : null;
		if (parsed == null || !METHODS.contains(parsed)) {
			throw new IllegalArgumentException("'" + method + "' is not an HTTP method: write one of GET, HEAD, "
					+ "POST, PUT, PATCH, DELETE, OPTIONS, TRACE");
		}
		return parsed;
	}

	/**
	 * @param path a path pattern starting with {@code /}
	 * @return the parsed pattern
	 * @throws IllegalArgumentException when it does not parse
	 */
	public static PathPattern pattern(String path) {
		if (path == null || !path.startsWith("/")) {
			throw new IllegalArgumentException("'" + path + "' is not a path pattern: it must start with /, such as "
					+ "/v1/chat/completions or /orders/{id}");
		}
		try {
			return PathPatternParser.defaultInstance.parse(path);
		}
		catch (PatternParseException ex) {
			throw new IllegalArgumentException("'" + path + "' is not a path pattern: " + ex.getMessage()
					+ " (such as /v1/chat/completions or /orders/{id})", ex);
		}
	}

	/**
	 * @param method the request's method
	 * @param path the request's path within the application
	 * @return whether this route covers the request
	 */
	public boolean matches(String method, PathContainer path) {
		return this.method.matches(method) && this.pattern.matches(path);
	}

}
