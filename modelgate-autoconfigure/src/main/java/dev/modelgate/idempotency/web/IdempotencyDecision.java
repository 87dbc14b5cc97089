package dev.modelgate.idempotency.web;

/**
 * One decision of the {@link IdempotencyFilter}, as {@link IdempotencyListener listeners} see it.
 * Holds nothing a client sent verbatim: no key, no body, no client identity.
 *
 * @param outcome what was decided
 * @param method the request's HTTP method
 * @param endpoint the {@code @Idempotent} endpoint; its {@link IdempotentEndpoint#route() route} is
 * the pattern (such as {@code /orders/{id}}), never the raw path
 * @param scope the scope hash, or {@code null} when the decision came before it was known (an
 * invalid or missing key, a body that could not be read)
 */
public record IdempotencyDecision(IdempotencyOutcome outcome, String method, IdempotentEndpoint endpoint,
		String scope) {

}
