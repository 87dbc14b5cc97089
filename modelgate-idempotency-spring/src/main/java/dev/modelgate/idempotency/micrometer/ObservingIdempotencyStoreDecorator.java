package dev.modelgate.idempotency.micrometer;

import io.micrometer.observation.ObservationRegistry;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreDecorator;

/** Makes the coordinator's store an {@link ObservedIdempotencyStore}. */
public class ObservingIdempotencyStoreDecorator implements IdempotencyStoreDecorator {

	private final ObservationRegistry registry;

	private final IdempotencyStoreObservationConvention convention;

	/**
	 * @param registry where observations go
	 * @param convention replaces the default naming and tagging, or {@code null}
	 */
	public ObservingIdempotencyStoreDecorator(ObservationRegistry registry,
			IdempotencyStoreObservationConvention convention) {
		this.registry = registry;
		this.convention = convention;
	}

	@Override
	public IdempotencyStore decorate(IdempotencyStore store) {
		return new ObservedIdempotencyStore(store, this.registry, this.convention);
	}

}
