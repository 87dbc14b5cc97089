package dev.modelgate.idempotency.micrometer;

import io.micrometer.common.KeyValues;

/**
 * Store observations named {@value #NAME} (so the timer is {@code modelgate.idempotency.store} and a
 * span is called {@code idempotency <operation>}), with the low-cardinality key values
 * {@code operation}, {@code store} and {@code result}, and the scope hash as the high-cardinality
 * {@code modelgate.idempotency.scope} (on spans only, never on metrics).
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

	@Override
	public KeyValues getLowCardinalityKeyValues(IdempotencyStoreObservationContext context) {
		return KeyValues.of("operation", context.getOperation(), "store", context.getStoreType(), "result",
				context.getResult());
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(IdempotencyStoreObservationContext context) {
		return KeyValues.of("modelgate.idempotency.scope", context.getScope());
	}

}
