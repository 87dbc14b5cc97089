package dev.modelgate.idempotency.autoconfigure;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.servlet.IdempotentHandlerResolver;

import static dev.modelgate.idempotency.web.servlet.IdempotentRoute.idempotent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.web.servlet.function.RouterFunctions.route;

/**
 * Routes without annotations in the auto-configured filter: declared routes and functional routes
 * with the {@code IdempotentRoute} attribute are found, and an idempotent functional route the filter
 * cannot find per request stops start-up with an analysis.
 */
@Tag("boot")
class IdempotentRoutesAutoConfigurationTests {

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class, JacksonAutoConfiguration.class))
		.withPropertyValues("modelgate.idempotency.store=memory");

	@Test
	void declaredAndFunctionalRoutesAreResolved() {
		this.contextRunner.withUserConfiguration(WebMvc.class, MarkedRoute.class)
			.withPropertyValues("modelgate.idempotency.routes[0].method=POST",
					"modelgate.idempotency.routes[0].path=/declared/{id}",
					"modelgate.idempotency.routes[0].ttl=1h")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				IdempotentHandlerResolver resolver = context.getBean(IdempotentHandlerResolver.class);
				IdempotentEndpoint declared = resolver.resolve(new MockHttpServletRequest("POST", "/declared/1"));
				assertThat(declared.route()).isEqualTo("/declared/{id}");
				assertThat(declared.ttl()).hasHours(1);
				IdempotentEndpoint marked = resolver.resolve(new MockHttpServletRequest("POST", "/marked"));
				assertThat(marked.route()).isEqualTo("/marked");
				assertThat(marked.ttl()).hasHours(24);
				assertThat(resolver.resolve(new MockHttpServletRequest("POST", "/other"))).isNull();
			});
	}

	@Test
	void functionalRouteTheFilterCannotFindFailsStartUpWithAnAnalysis() {
		this.contextRunner.withUserConfiguration(WebMvc.class, AmbiguousRoutes.class).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new InvalidIdempotentRouteFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains("share a method and a path pattern");
			assertThat(analysis.getAction()).contains("modelgate.idempotency.routes");
		});
	}

	@Test
	void failureAnalyzerIsRegistered() {
		List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation(getClass().getClassLoader())
			.load(FailureAnalyzer.class, null, (factoryType, implementationName, failure) -> {
			});
		assertThat(analyzers).hasAtLeastOneElementOfType(InvalidIdempotentRouteFailureAnalyzer.class);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebMvc
	static class WebMvc {

	}

	@Configuration(proxyBeanMethods = false)
	static class MarkedRoute {

		@Bean
		RouterFunction<ServerResponse> markedRoute() {
			return route().POST("/marked", (request) -> ServerResponse.ok().build())
				.withAttributes(idempotent())
				.POST("/declared/{id}", (request) -> ServerResponse.ok().build())
				.build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AmbiguousRoutes {

		@Bean
		RouterFunction<ServerResponse> ambiguousRoutes() {
			return route().POST("/same", (request) -> ServerResponse.ok().build())
				.withAttributes(idempotent())
				.POST("/same", (request) -> ServerResponse.accepted().build())
				.build();
		}

	}

}
