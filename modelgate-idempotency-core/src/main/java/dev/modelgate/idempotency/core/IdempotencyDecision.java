package dev.modelgate.idempotency.core;

import org.jspecify.annotations.Nullable;

/**
 * One decision taken for a keyed operation, as {@link IdempotencyListener listeners} see it: by the
 * web filter for a request to an {@code @Idempotent} endpoint, or by {@link IdempotencyTemplate} for a
 * programmatic call. Holds nothing a client sent verbatim: no key, no body, no client identity.
 *
 * @param outcome what was decided
 * @param method the HTTP method of a request, {@link #OPERATION} for a template call, or {@link #LISTENER}
 * for a message listener's run
 * @param route the route pattern of a request (such as {@code /orders/{id}}, never the raw path), or
 * the operation's name for a template call
 * @param scope the scope hash, or {@code null} when the decision came before it was known (an invalid
 * or missing key, a body that could not be read)
 */
public record IdempotencyDecision(IdempotencyOutcome outcome, String method, String route, @Nullable String scope) {

	/** The {@link #method() method} of decisions taken for {@link IdempotencyTemplate} calls. */
	public static final String OPERATION = "OPERATION";

	/**
	 * The {@link #method() method} of decisions taken for message listeners ({@code @IdempotentListener});
	 * their route is the listener's scope, its method and consumer group or queue.
	 */
	public static final String LISTENER = "LISTENER";

}
