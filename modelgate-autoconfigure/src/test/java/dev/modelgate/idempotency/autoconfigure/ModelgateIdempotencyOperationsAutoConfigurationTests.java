package dev.modelgate.idempotency.autoconfigure;

import java.time.Duration;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.operation.IdempotentOperationInterceptor;
import dev.modelgate.idempotency.operation.IdempotentOperationPostProcessor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When {@link ModelgateIdempotencyOperationsAutoConfiguration} provides the template and the
 * {@code @IdempotentOperation} support, and when it backs off.
 */
@Tag("boot")
class ModelgateIdempotencyOperationsAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class,
				ModelgateIdempotencyOperationsAutoConfiguration.class))
		.withPropertyValues("modelgate.idempotency.store=memory");

	@Test
	void nonWebApplicationGetsTheTemplateWithTheGlobalDurations() {
		this.contextRunner.withPropertyValues("modelgate.idempotency.ttl=2h", "modelgate.idempotency.lease-ttl=7s")
			.run((context) -> {
				assertThat(context).hasSingleBean(IdempotencyTemplate.class)
					.hasSingleBean(IdempotentOperationInterceptor.class)
					.hasSingleBean(IdempotentOperationPostProcessor.class);
				IdempotencyTemplate.Defaults defaults = context.getBean(IdempotencyTemplate.class).getDefaults();
				assertThat(defaults.ttl()).isEqualTo(Duration.ofHours(2));
				assertThat(defaults.leaseTtl()).isEqualTo(Duration.ofSeconds(7));
				assertThat(defaults.waitTimeout()).isZero();
			});
	}

	@Test
	void backsOffToTheApplicationsTemplate() {
		this.contextRunner.withBean("myTemplate", IdempotencyTemplate.class,
				() -> new IdempotencyTemplate(IdempotencyCoordinator.create(new InMemoryIdempotencyStore(),
						Duration.ofSeconds(1))))
			.run((context) -> assertThat(context).hasSingleBean(IdempotencyTemplate.class).hasBean("myTemplate"));
	}

	@Test
	void disabledIdempotencyProvidesNothing() {
		this.contextRunner.withPropertyValues("modelgate.idempotency.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(IdempotencyTemplate.class)
				.doesNotHaveBean(IdempotentOperationPostProcessor.class));
	}

	@Test
	void withoutTheMainAutoConfigurationThereIsNoCoordinatorAndNothingIsProvided() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyOperationsAutoConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(IdempotencyTemplate.class));
	}

}
