package dev.modelgate.idempotency.core;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Decides what a failure of the work means for its key: released (a retry runs the work again),
 * recorded (a retry gets the same failure back) or unknown (a retry reconciles first).
 *
 * <p>The failure and then its causes are looked at in turn; for each, its class and then its
 * superclasses are looked up among the mapped types, and the first match decides. So
 * {@code retryOn(IOException.class).unknownOn(SocketTimeoutException.class)} marks a read timeout
 * unknown and every other I/O failure retryable, and a timeout wrapped in a client library's own
 * exception is still found. A failure that matches nothing gets {@link #otherwise} if it is an
 * {@link Exception}, and is released if it is an {@link Error} (an {@code OutOfMemoryError} says
 * nothing about the operation). {@link OutcomeUnknownException} is mapped to {@link Action#UNKNOWN}
 * unless mapped otherwise.
 *
 * <p>The standard policy releases everything else, as the web filter does for exceptions. Instances
 * are immutable; each method returns a new policy.
 */
public final class FailurePolicy {

	private static final FailurePolicy STANDARD = new FailurePolicy(
			Map.of(OutcomeUnknownException.class, Action.UNKNOWN), Action.RELEASE);

	private final Map<Class<?>, Action> actions;

	private final Action otherwise;

	private FailurePolicy(Map<Class<?>, Action> actions, Action otherwise) {
		this.actions = Collections.unmodifiableMap(new LinkedHashMap<>(actions));
		this.otherwise = otherwise;
	}

	/**
	 * {@return a policy that releases every failure except {@link OutcomeUnknownException}, which is
	 * unknown}
	 */
	public static FailurePolicy standard() {
		return STANDARD;
	}

	/**
	 * These failures release the key: they are retryable.
	 * @param types the failure classes, subclasses included
	 * @return a copy of this policy with the mapping
	 */
	@SafeVarargs
	public final FailurePolicy retryOn(Class<? extends Throwable>... types) {
		return with(Action.RELEASE, types);
	}

	/**
	 * These failures are recorded and replayed to retries: they are final.
	 * @param types the failure classes, subclasses included
	 * @return a copy of this policy with the mapping
	 */
	@SafeVarargs
	public final FailurePolicy recordOn(Class<? extends Throwable>... types) {
		return with(Action.RECORD, types);
	}

	/**
	 * These failures leave the outcome unknown: a retry reconciles before running the work.
	 * @param types the failure classes, subclasses included
	 * @return a copy of this policy with the mapping
	 */
	@SafeVarargs
	public final FailurePolicy unknownOn(Class<? extends Throwable>... types) {
		return with(Action.UNKNOWN, types);
	}

	/**
	 * What an {@link Exception} that matches no mapped type means.
	 * @param action the meaning
	 * @return a copy of this policy with that meaning
	 */
	public FailurePolicy otherwise(Action action) {
		return new FailurePolicy(this.actions, action);
	}

	private FailurePolicy with(Action action, Class<? extends Throwable>[] types) {
		Map<Class<?>, Action> actions = new LinkedHashMap<>(this.actions);
		for (Class<? extends Throwable> type : types) {
			actions.put(type, action);
		}
		return new FailurePolicy(actions, this.otherwise);
	}

	/**
	 * {@return what {@code failure} means for the key}
	 * @param failure what the work threw
	 */
	public Action classify(Throwable failure) {
		Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
		for (Throwable current = failure; current != null && seen.add(current); current = current.getCause()) {
			for (Class<?> type = current.getClass(); type != Object.class; type = type.getSuperclass()) {
				Action action = this.actions.get(type);
				if (action != null) {
					return action;
				}
			}
		}
		return (failure instanceof Exception) ? this.otherwise : Action.RELEASE;
	}

	@Override
	public String toString() {
		return "FailurePolicy" + this.actions + ", otherwise " + this.otherwise;
	}

	/** What a failure of the work means for its key. */
	public enum Action {

		/** The key is released: a retry runs the work again. */
		RELEASE,

		/** The failure is recorded: retries get a {@link RecordedFailureException} for it. */
		RECORD,

		/**
		 * The work may have taken effect: the outcome is recorded as unknown, and a retry asks the call's
		 * {@link Reconciler} before running the work again.
		 */
		UNKNOWN

	}

}
