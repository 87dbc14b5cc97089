package dev.modelgate.idempotency.core;

/**
 * Looks up downstream whether work whose outcome was recorded as unknown took effect, for example by
 * asking the mail service for a message sent with the operation's derived key. It must only read: it
 * runs instead of the work, and the template trusts its answer.
 *
 * @param <T> the type of the work's result
 * @see IdempotentCall#withReconciler(Reconciler)
 */
@FunctionalInterface
public interface Reconciler<T> {

	/**
	 * @return {@link Reconciliation#found} with the result the work would have returned, or
	 * {@link Reconciliation#notFound()} when the effect did not happen (the work then runs)
	 * @throws Exception when the downstream system cannot be asked; the outcome stays unknown
	 */
	Reconciliation<T> reconcile() throws Exception;

}
