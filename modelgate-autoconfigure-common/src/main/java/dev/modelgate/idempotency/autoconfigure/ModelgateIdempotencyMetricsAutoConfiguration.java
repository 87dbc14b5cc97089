package dev.modelgate.idempotency.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.micrometer.IdempotencyLeaseMetrics;
import dev.modelgate.idempotency.micrometer.IdempotencyStoreObservationConvention;
import dev.modelgate.idempotency.micrometer.MicrometerIdempotencyListener;
import dev.modelgate.idempotency.micrometer.ObservingIdempotencyStoreDecorator;

/**
 * Micrometer metrics and observations for Idempotency-Key handling, when Micrometer is on the class
 * path: the decision counter and the first-versus-replay timer (through an
 * {@link MicrometerIdempotencyListener} the filter calls), the gauge of leases held, and an
 * {@code Observation} around every store call, which Spring Boot turns into a timer and, with a
 * tracing bridge, into spans.
 */
@AutoConfiguration(after = ModelgateIdempotencyAutoConfiguration.class, afterName = {
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
		"org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
		// The same on Spring Boot 3.5: names not on the class path are ignored, so one list serves both lines.
		"org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
		"org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration",
		"org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration" })
@ConditionalOnClass({ MeterRegistry.class, ObservationRegistry.class })
@ConditionalOnBooleanProperty(name = "modelgate.idempotency.enabled", matchIfMissing = true)
@ConditionalOnBean(IdempotencyCoordinator.class)
public class ModelgateIdempotencyMetricsAutoConfiguration {

	@Bean
	@ConditionalOnBean(MeterRegistry.class)
	@ConditionalOnMissingBean
	MicrometerIdempotencyListener micrometerIdempotencyListener(MeterRegistry registry) {
		return new MicrometerIdempotencyListener(registry);
	}

	@Bean
	@ConditionalOnBean(MeterRegistry.class)
	@ConditionalOnMissingBean
	IdempotencyLeaseMetrics idempotencyLeaseMetrics(IdempotencyCoordinator coordinator) {
		return new IdempotencyLeaseMetrics(coordinator);
	}

	/**
	 * Observes store calls through the application's {@link ObservationRegistry}; without one (Spring
	 * Boot's observation support absent) through a registry of its own that only records timers, so
	 * that the store timers exist wherever a {@link MeterRegistry} does.
	 */
	@Bean
	@ConditionalOnMissingBean
	ObservingIdempotencyStoreDecorator observingIdempotencyStoreDecorator(
			ObjectProvider<ObservationRegistry> observationRegistry, ObjectProvider<MeterRegistry> meterRegistry,
			ObjectProvider<IdempotencyStoreObservationConvention> convention) {
		ObservationRegistry registry = observationRegistry.getIfAvailable(() -> {
			MeterRegistry meters = meterRegistry.getIfAvailable();
			if (meters == null) {
				return ObservationRegistry.NOOP;
			}
			ObservationRegistry own = ObservationRegistry.create();
			own.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
			return own;
		});
		return new ObservingIdempotencyStoreDecorator(registry, convention.getIfAvailable());
	}

}
