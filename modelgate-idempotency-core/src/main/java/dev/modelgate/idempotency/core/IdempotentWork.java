package dev.modelgate.idempotency.core;

/**
 * A piece of work run by {@link IdempotencyTemplate} under an idempotency key: a tool call, a message
 * handler, a scheduled job's effect.
 *
 * @param <T> the type of its result
 * @param <E> the checked exception it may throw, passed on to the caller unchanged
 */
@FunctionalInterface
public interface IdempotentWork<T, E extends Throwable> {

	/**
	 * Does the work.
	 * @return the result to record and return
	 * @throws E what the work failed with
	 */
	T run() throws E;

}
