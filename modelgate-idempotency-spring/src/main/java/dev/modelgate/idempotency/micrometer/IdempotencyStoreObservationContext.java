package dev.modelgate.idempotency.micrometer;

import io.micrometer.observation.Observation;

/**
 * The context of one observed store call.
 */
public class IdempotencyStoreObservationContext extends Observation.Context {

	/** The result of a call that failed. */
	public static final String ERROR = "error";

	private final String operation;

	private final String storeType;

	private final String scope;

	private String result;

	/**
	 * @param operation the store method: {@code begin}, {@code renew}, {@code complete},
	 * {@code release}, {@code find} or {@code delete}
	 * @param storeType the kind of store ({@code redis}, {@code jdbc}, {@code memory}, ...)
	 * @param scope the scope hash the call is about
	 */
	public IdempotencyStoreObservationContext(String operation, String storeType, String scope) {
		this.operation = operation;
		this.storeType = storeType;
		this.scope = scope;
	}

	/** {@return the store method: {@code begin}, {@code renew}, {@code complete}, ...} */
	public String getOperation() {
		return this.operation;
	}

	/** {@return the kind of store ({@code redis}, {@code jdbc}, {@code memory}, ...)} */
	public String getStoreType() {
		return this.storeType;
	}

	/** {@return the scope hash the call is about} */
	public String getScope() {
		return this.scope;
	}

	/**
	 * What the store answered, in a few low-cardinality words: for {@code begin} its outcome
	 * ({@code acquired}, {@code mismatch}, {@code in_progress}, {@code completed}); for the
	 * transitions and {@code delete} {@code ok} or {@code refused}; for {@code find} {@code found} or
	 * {@code absent}; {@link #ERROR} when the call failed; {@code null} while the call runs.
	 * @return the result
	 */
	public String getResult() {
		return this.result;
	}

	/** @param result the call's result, as {@link #getResult()} describes it */
	public void setResult(String result) {
		this.result = result;
	}

}
