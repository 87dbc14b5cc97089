package dev.modelgate.idempotency.core;

import java.util.Optional;

/**
 * What a {@link Reconciler} found downstream.
 *
 * @param <T> the type of the work's result
 */
public final class Reconciliation<T> {

	private static final Reconciliation<?> NOT_FOUND = new Reconciliation<>(false, null);

	private final boolean found;

	private final T value;

	private Reconciliation(boolean found, T value) {
		this.found = found;
		this.value = value;
	}

	/**
	 * The effect happened.
	 * @param value the result to record and return, as the work would have returned it (may be
	 * {@code null})
	 * @param <T> the type of the work's result
	 * @return a found reconciliation
	 */
	public static <T> Reconciliation<T> found(T value) {
		return new Reconciliation<>(true, value);
	}

	/**
	 * The effect did not happen: the work may run.
	 * @param <T> the type of the work's result
	 * @return a not-found reconciliation
	 */
	@SuppressWarnings("unchecked")
	public static <T> Reconciliation<T> notFound() {
		return (Reconciliation<T>) NOT_FOUND;
	}

	/**
	 * Found when the optional holds a value, not found when it is empty.
	 * @param lookup what the downstream lookup returned
	 * @param <T> the type of the work's result
	 * @return the reconciliation
	 */
	public static <T> Reconciliation<T> of(Optional<T> lookup) {
		return lookup.map(Reconciliation::found).orElseGet(Reconciliation::notFound);
	}

	/** @return whether the effect happened */
	public boolean isFound() {
		return this.found;
	}

	/** @return the result found; {@code null} when not found */
	public T value() {
		return this.value;
	}

	@Override
	public String toString() {
		return this.found ? "Reconciliation[found]" : "Reconciliation[not found]";
	}

}
