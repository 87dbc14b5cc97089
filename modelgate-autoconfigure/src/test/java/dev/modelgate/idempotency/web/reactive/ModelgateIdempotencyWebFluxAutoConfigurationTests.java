package dev.modelgate.idempotency.web.reactive;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.web.reactive.DispatcherHandler;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyAutoConfiguration;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyWebFluxAutoConfiguration;
import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.internal.BlockingIdempotencyStoreAdapter;
import dev.modelgate.idempotency.web.reactive.IdempotencyWebFilter;
import dev.modelgate.idempotency.web.reactive.ReactiveClientIdentityResolver;
import dev.modelgate.idempotency.web.reactive.ReactiveIdempotencyEngine;

import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;

/** The conditions of the reactive auto-configuration. */
@Tag("boot")
class ModelgateIdempotencyWebFluxAutoConfigurationTests {

	private final ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class,
				ModelgateIdempotencyWebFluxAutoConfiguration.class))
		.withPropertyValues("modelgate.idempotency.store=memory");

	@Test
	void reactiveApplicationGetsTheWebFilterOnTheAdaptedStore() {
		this.reactive.run((context) -> {
			assertThat(context).hasSingleBean(IdempotencyWebFilter.class);
			assertThat(context).hasSingleBean(ReactiveIdempotencyEngine.class);
			assertThat(context.getBean(AsyncIdempotencyStore.class)).isInstanceOf(BlockingIdempotencyStoreAdapter.class);
			assertThat(context.getBean(BlockingIdempotencyStoreAdapter.class).isDirect()).isTrue();
		});
	}

	@Test
	void backsOffFromTheApplicationsBeans() {
		ReactiveClientIdentityResolver resolver = (exchange) -> Mono.just("mine");
		this.reactive.withBean(ReactiveClientIdentityResolver.class, () -> resolver).run((context) -> {
			assertThat(context.getBean(ReactiveClientIdentityResolver.class)).isSameAs(resolver);
			assertThat(context).hasSingleBean(IdempotencyWebFilter.class);
		});
	}

	@Test
	void disabledGivesNoWebFilter() {
		this.reactive.withPropertyValues("modelgate.idempotency.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(IdempotencyWebFilter.class)
				.doesNotHaveBean(AsyncIdempotencyStore.class));
	}

	@Test
	void withoutWebFluxThereIsNoWebFilter() {
		this.reactive.withClassLoader(new FilteredClassLoader(DispatcherHandler.class))
			.run((context) -> assertThat(context).doesNotHaveBean(IdempotencyWebFilter.class));
	}

	@Test
	void servletApplicationGetsNoReactiveBeans() {
		new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class,
					ModelgateIdempotencyWebFluxAutoConfiguration.class))
			.withPropertyValues("modelgate.idempotency.store=memory")
			.run((context) -> assertThat(context).doesNotHaveBean(IdempotencyWebFilter.class)
				.doesNotHaveBean(AsyncIdempotencyStore.class));
	}

}
