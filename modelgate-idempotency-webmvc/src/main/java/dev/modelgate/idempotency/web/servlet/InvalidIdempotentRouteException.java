package dev.modelgate.idempotency.web.servlet;

/**
 * Thrown at start-up when an idempotent functional route cannot be found per request: it has no path
 * pattern, or another route has its method and pattern without its settings.
 */
public class InvalidIdempotentRouteException extends IllegalStateException {

	private final String route;

	/**
	 * @param route the route's request predicate, as Spring MVC describes it
	 * @param message what is wrong and how to fix it
	 */
	public InvalidIdempotentRouteException(String route, String message) {
		super(message);
		this.route = route;
	}

	/** {@return the route's request predicate, as Spring MVC describes it} */
	public String getRoute() {
		return this.route;
	}

}
