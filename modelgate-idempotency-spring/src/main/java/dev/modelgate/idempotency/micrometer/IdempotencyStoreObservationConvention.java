package dev.modelgate.idempotency.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags store observations. Declare a bean of this type to replace
 * {@link DefaultIdempotencyStoreObservationConvention}.
 */
public interface IdempotencyStoreObservationConvention
		extends ObservationConvention<IdempotencyStoreObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof IdempotencyStoreObservationContext;
	}

}
