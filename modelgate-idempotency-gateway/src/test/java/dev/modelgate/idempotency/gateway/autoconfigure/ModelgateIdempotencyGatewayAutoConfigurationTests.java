package dev.modelgate.idempotency.gateway.autoconfigure;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.cloud.gateway.filter.factory.GatewayFilterFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.modelgate.idempotency.web.EndpointDefaults;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyAutoConfiguration;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyWebFluxAutoConfiguration;
import dev.modelgate.idempotency.gateway.IdempotencyGatewayFilterFactory;
import dev.modelgate.idempotency.web.reactive.ReactiveIdempotencyEngine;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the {@code Idempotency} route filter factory is auto-configured, and when it backs off.
 */
@Tag("boot")
class ModelgateIdempotencyGatewayAutoConfigurationTests {

	private final ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class,
				ModelgateIdempotencyWebFluxAutoConfiguration.class, ModelgateIdempotencyGatewayAutoConfiguration.class))
		.withPropertyValues("modelgate.idempotency.store=memory");

	@Test
	void registersTheFilterFactoryOnTheEngineInAReactiveApplicationWithTheGateway() {
		this.reactive.run((context) -> {
			assertThat(context).hasSingleBean(ReactiveIdempotencyEngine.class);
			assertThat(context).hasSingleBean(IdempotencyGatewayFilterFactory.class);
			assertThat(context.getBean(IdempotencyGatewayFilterFactory.class).name()).isEqualTo("Idempotency");
		});
	}

	@Test
	void backsOffToTheApplicationsOwnFactory() {
		this.reactive.withUserConfiguration(OwnFactory.class).run((context) -> {
			assertThat(context).hasSingleBean(IdempotencyGatewayFilterFactory.class);
			assertThat(context).getBean(IdempotencyGatewayFilterFactory.class).isSameAs(OwnFactory.FACTORY);
		});
	}

	@Test
	void noFactoryWhenIdempotencyIsDisabled() {
		this.reactive.withPropertyValues("modelgate.idempotency.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(IdempotencyGatewayFilterFactory.class));
	}

	@Test
	void noFactoryWithoutSpringCloudGateway() {
		this.reactive.withClassLoader(new FilteredClassLoader(GatewayFilterFactory.class))
			.run((context) -> assertThat(context).doesNotHaveBean(IdempotencyGatewayFilterFactory.class));
	}

	@Test
	void noFactoryOutsideAReactiveWebApplication() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class,
					ModelgateIdempotencyWebFluxAutoConfiguration.class, ModelgateIdempotencyGatewayAutoConfiguration.class))
			.withPropertyValues("modelgate.idempotency.store=memory")
			.run((context) -> assertThat(context).doesNotHaveBean(IdempotencyGatewayFilterFactory.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnFactory {

		static IdempotencyGatewayFilterFactory FACTORY;

		@Bean
		IdempotencyGatewayFilterFactory ownIdempotencyFactory(ReactiveIdempotencyEngine engine) {
			FACTORY = new IdempotencyGatewayFilterFactory(engine, new EndpointDefaults(
					java.time.Duration.ofHours(1), java.time.Duration.ofSeconds(30), java.time.Duration.ZERO,
					dev.modelgate.idempotency.Idempotent.InProgress.REJECT));
			return FACTORY;
		}

	}

}
