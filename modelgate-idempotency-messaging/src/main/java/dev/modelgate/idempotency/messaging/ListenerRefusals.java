package dev.modelgate.idempotency.messaging;

import java.util.List;

import dev.modelgate.idempotency.core.IdempotencyKeyReusedException;
import dev.modelgate.idempotency.core.InvalidIdempotencyKeyException;
import dev.modelgate.idempotency.core.OutcomeUnknownException;
import dev.modelgate.idempotency.core.RecordedFailureException;

/**
 * The refusals no redelivery can change, which both brokers dead-letter at once: the key used with
 * another payload, a failure recorded as final, a message without a usable key, an outcome that is
 * unknown. {@code IdempotencyInProgressException} is not one: the running listener may
 * still release the key, so it is retried with a delay.
 */
public final class ListenerRefusals {

	/** The final refusals, in the order the brokers' classifiers are given them. */
	public static final List<Class<? extends RuntimeException>> FINAL = List.of(IdempotencyKeyReusedException.class,
			RecordedFailureException.class, InvalidIdempotencyKeyException.class, OutcomeUnknownException.class);

	private ListenerRefusals() {
	}

	/**
	 * @param failure what a listener's advice threw, or a cause of it
	 * @return whether it, or one of its causes, is a final refusal
	 */
	public static boolean isFinal(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			for (Class<? extends RuntimeException> type : FINAL) {
				if (type.isInstance(cause)) {
					return true;
				}
			}
		}
		return false;
	}

}
