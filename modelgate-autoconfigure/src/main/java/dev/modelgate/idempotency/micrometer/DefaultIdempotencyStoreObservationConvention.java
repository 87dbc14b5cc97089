package dev.modelgate.idempotency.micrometer;

import io.micrometer.common.KeyValues;

/**
 * Store observations named {@value #NAME} (so the timer is {@code modelgate.idempotency.store} and a
 * span is called {@code idempotency <operation>}), with the low-cardinality key values
 * {@code operation}, {@code store} and (once the call returned) {@code result}, and the scope hash as
 * the high-cardinality {@code modelgate.idempotency.scope} (on spans only, never on metrics).
 */
public class DefaultIdempotencyStoreObservationConvention implements IdempotencyStoreObservationConvention {

	/** Name of the observation, and so of its timer. */
	public static final String NAME = "modelgate.idempotency.store";

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(IdempotencyStoreObservationContext context) {
		return "idempotency " + context.getOperation();
	}

	/**
	 * The result is only known once the call returns: the long task timer of running calls, tagged
	 * when they start, goes without it.
	 */
	@Override
	public KeyValues getLowCardinalityKeyValues(IdempotencyStoreObservationContext context) {
		KeyValues keyValues = KeyValues.of("operation", context.getOperation(), "store", context.getStoreType());
		return (context.getResult() != null) ? keyValues.and("result", context.getResult()) : keyValues;
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(IdempotencyStoreObservationContext context) {
		return KeyValues.of("modelgate.idempotency.scope", context.getScope());
	}

}
