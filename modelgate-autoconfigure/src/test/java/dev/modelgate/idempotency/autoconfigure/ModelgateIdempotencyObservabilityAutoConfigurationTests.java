package dev.modelgate.idempotency.autoconfigure;

import java.io.IOException;
import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springdoc.core.customizers.GlobalOperationCustomizer;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import dev.modelgate.idempotency.actuate.endpoint.IdempotencyEndpoint;
import dev.modelgate.idempotency.boot4.autoconfigure.IdempotencyStoreHealthIndicator;
import dev.modelgate.idempotency.boot4.autoconfigure.ModelgateIdempotencyHealthContributorAutoConfiguration;
import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.micrometer.DefaultIdempotencyStoreObservationConvention;
import dev.modelgate.idempotency.micrometer.IdempotencyLeaseMetrics;
import dev.modelgate.idempotency.micrometer.MicrometerIdempotencyListener;
import dev.modelgate.idempotency.micrometer.ObservedIdempotencyStore;
import dev.modelgate.idempotency.openapi.IdempotencyOperationCustomizer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The conditions of the observability auto-configurations: metrics only with Micrometer, health only
 * with Spring Boot's health support and while enabled, the endpoint only when given access and
 * exposed, the OpenAPI customizer only with springdoc, and none of them when the starter is off.
 */
@Tag("boot")
class ModelgateIdempotencyObservabilityAutoConfigurationTests {

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class,
				ModelgateIdempotencyMetricsAutoConfiguration.class,
				ModelgateIdempotencyHealthContributorAutoConfiguration.class,
				ModelgateIdempotencyEndpointAutoConfiguration.class, ModelgateIdempotencyOpenApiAutoConfiguration.class,
				JacksonAutoConfiguration.class))
		.withPropertyValues("modelgate.idempotency.store=memory");

	@Test
	void withSpringBootMetricsTheStoreIsTimedAndLeasesGauged() {
		this.contextRunner
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
					ObservationAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasSingleBean(MicrometerIdempotencyListener.class)
					.hasSingleBean(IdempotencyLeaseMetrics.class);
				IdempotencyCoordinator coordinator = context.getBean(IdempotencyCoordinator.class);
				assertThat(coordinator.getStore()).isInstanceOf(ObservedIdempotencyStore.class);
				coordinator.begin("scope", "fp", Duration.ofSeconds(30), Duration.ZERO).lease().release();
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get(DefaultIdempotencyStoreObservationConvention.NAME)
					.tags("operation", "begin", "result", "acquired", "store", "memory")
					.timer()
					.count()).isEqualTo(1);
				assertThat(registry.get(IdempotencyLeaseMetrics.LEASES_HELD).gauge().value()).isZero();
			});
	}

	@Test
	void withAMeterRegistryButNoObservationSupportTheStoreIsStillTimed() {
		this.contextRunner.withBean(SimpleMeterRegistry.class).run((context) -> {
			IdempotencyCoordinator coordinator = context.getBean(IdempotencyCoordinator.class);
			coordinator.begin("scope", "fp", Duration.ofSeconds(30), Duration.ZERO).lease().release();
			assertThat(context.getBean(MeterRegistry.class)
				.get(DefaultIdempotencyStoreObservationConvention.NAME)
				.tags("operation", "release", "result", "ok")
				.timer()
				.count()).isEqualTo(1);
		});
	}

	@Test
	void withoutMicrometerNothingIsMeasured() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(MeterRegistry.class)).run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(MicrometerIdempotencyListener.class)
				.doesNotHaveBean(IdempotencyLeaseMetrics.class);
			// No observing decorator: the coordinator calls the memory store itself (it never waits).
			assertThat(context.getBean(IdempotencyCoordinator.class).getStore())
				.isInstanceOf(InMemoryIdempotencyStore.class);
		});
	}

	@Test
	void healthContributorIsOnByDefaultAndCanBeTurnedOff() {
		this.contextRunner
			.run((context) -> assertThat(context).hasSingleBean(IdempotencyStoreHealthIndicator.class)
				.hasBean("idempotencyHealthIndicator"));
		this.contextRunner.withPropertyValues("management.health.idempotency.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(IdempotencyStoreHealthIndicator.class));
		this.contextRunner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(IdempotencyStoreHealthIndicator.class));
	}

	@Test
	void endpointHasNoAccessUntilGivenSomeAndExposed() {
		// Enum constants by name: a context runner lacks SpringApplication's lenient conversion, which
		// also reads the documented read-only.
		WebApplicationContextRunner actuator = this.contextRunner.withConfiguration(
				AutoConfigurations.of(EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class));
		actuator.withPropertyValues("management.endpoints.web.exposure.include=*")
			.run((context) -> assertThat(context).doesNotHaveBean(IdempotencyEndpoint.class));
		actuator.withPropertyValues("management.endpoint.idempotency.access=READ_ONLY")
			.run((context) -> assertThat(context).doesNotHaveBean(IdempotencyEndpoint.class));
		actuator
			.withPropertyValues("management.endpoint.idempotency.access=READ_ONLY",
					"management.endpoints.web.exposure.include=idempotency")
			.run((context) -> assertThat(context).hasSingleBean(IdempotencyEndpoint.class));
	}

	@Test
	void configurationMetadataTellsTheIdeThatTheEndpointHasNoAccessByDefault() throws IOException {
		JsonNode access = null;
		for (JsonNode property : ModelgateIdempotencyAutoConfigurationTests.modelgateMetadata().get("properties")) {
			if ("management.endpoint.idempotency.access".equals(property.get("name").asString())) {
				access = property;
			}
		}
		assertThat(access).isNotNull();
		assertThat(access.get("defaultValue").asString()).isEqualTo("none");
	}

	@Test
	void openApiCustomizerOnlyWithSpringdoc() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(IdempotencyOperationCustomizer.class));
		this.contextRunner.withClassLoader(new FilteredClassLoader(GlobalOperationCustomizer.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(IdempotencyOperationCustomizer.class));
	}

	@Test
	void nothingWhenIdempotencyIsDisabled() {
		this.contextRunner.withBean(SimpleMeterRegistry.class)
			.withPropertyValues("modelgate.idempotency.enabled=false",
					"management.endpoint.idempotency.access=UNRESTRICTED",
					"management.endpoints.web.exposure.include=*")
			.run((context) -> assertThat(context).doesNotHaveBean(MicrometerIdempotencyListener.class)
				.doesNotHaveBean(IdempotencyStoreHealthIndicator.class)
				.doesNotHaveBean(IdempotencyEndpoint.class)
				.doesNotHaveBean(IdempotencyOperationCustomizer.class));
	}

}
