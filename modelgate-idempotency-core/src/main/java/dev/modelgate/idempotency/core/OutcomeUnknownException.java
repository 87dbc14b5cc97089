package dev.modelgate.idempotency.core;

/**
 * The work may have taken effect, but whether it did is not known: a timeout after the request was
 * sent, a connection lost before the answer.
 *
 * <p>Work run by {@link IdempotencyTemplate} throws it (or an exception its {@link FailurePolicy}
 * maps to {@link FailurePolicy.Action#UNKNOWN}) to have the outcome recorded as unknown instead of
 * the key being released; a retry then asks the call's {@link Reconciler} instead of running the
 * work again. The template throws it to a retry when the outcome is still unknown: there is no
 * reconciler, or the reconciler could not answer (its failure is the cause). Either way nothing ran
 * again, and a later retry may settle it.
 */
public class OutcomeUnknownException extends RuntimeException {

	/**
	 * An unknown outcome.
	 * @param message what happened
	 */
	public OutcomeUnknownException(String message) {
		super(message);
	}

	/**
	 * An unknown outcome with its cause.
	 * @param message what happened
	 * @param cause the failure that left the outcome unknown
	 */
	public OutcomeUnknownException(String message, Throwable cause) {
		super(message, cause);
	}

}
