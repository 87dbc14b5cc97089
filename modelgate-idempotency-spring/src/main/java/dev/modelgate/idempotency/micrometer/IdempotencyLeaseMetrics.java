package dev.modelgate.idempotency.micrometer;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import dev.modelgate.idempotency.core.IdempotencyCoordinator;

/**
 * Binds the gauge {@value #LEASES_HELD}: how many operations run right now under a key held by this
 * instance. A gauge that keeps climbing points at handlers that hang or leases that are never
 * settled.
 */
public class IdempotencyLeaseMetrics implements MeterBinder {

	/** Name of the gauge of leases held. */
	public static final String LEASES_HELD = "modelgate.idempotency.leases.held";

	private final IdempotencyCoordinator coordinator;

	/** @param coordinator counts the leases it handed out */
	public IdempotencyLeaseMetrics(IdempotencyCoordinator coordinator) {
		this.coordinator = coordinator;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder(LEASES_HELD, this.coordinator, IdempotencyCoordinator::getLeasesHeld)
			.description("Idempotency leases held by this instance: keyed operations running now")
			.strongReference(true)
			.register(registry);
	}

}
