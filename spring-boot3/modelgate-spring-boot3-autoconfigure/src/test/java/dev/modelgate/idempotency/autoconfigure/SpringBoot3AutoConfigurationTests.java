package dev.modelgate.idempotency.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import dev.modelgate.idempotency.IdempotentOperation;
import dev.modelgate.idempotency.actuate.endpoint.IdempotencyEndpoint;
import dev.modelgate.idempotency.boot3.autoconfigure.IdempotencyStoreHealthIndicator;
import dev.modelgate.idempotency.boot3.autoconfigure.ModelgateIdempotencyHealthContributorAutoConfiguration;
import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencyStore;
import dev.modelgate.idempotency.micrometer.DefaultIdempotencyStoreObservationConvention;
import dev.modelgate.idempotency.micrometer.MicrometerIdempotencyListener;
import dev.modelgate.idempotency.openapi.IdempotencyOperationCustomizer;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;
import dev.modelgate.idempotency.testsupport.RedisTestServer;
import dev.modelgate.idempotency.web.servlet.IdempotencyFilter;
import dev.modelgate.idempotency.web.IdempotencyProblem;
import dev.modelgate.idempotency.web.servlet.IdempotencyProblemRenderer;
import dev.modelgate.idempotency.web.servlet.IdempotentHandlerResolver;
import dev.modelgate.idempotency.web.servlet.ProblemDetailRenderer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What differs on Spring Boot 3.5: the store is found after Spring Boot 3's Redis and DataSource
 * auto-configurations (whose class names differ on Boot 4), problems and {@code @IdempotentOperation}
 * results go through the application's Jackson 2 {@code ObjectMapper}, health is Spring Boot 3's, and
 * metrics come after Spring Boot 3's metrics auto-configurations.
 */
@Tag("boot")
class SpringBoot3AutoConfigurationTests {

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class,
				ModelgateIdempotencyOperationsAutoConfiguration.class, ModelgateIdempotencyMetricsAutoConfiguration.class,
				ModelgateIdempotencyHealthContributorAutoConfiguration.class,
				ModelgateIdempotencyEndpointAutoConfiguration.class, ModelgateIdempotencyOpenApiAutoConfiguration.class,
				JacksonAutoConfiguration.class));

	@Test
	void declaredRoutesAreCheckedAndTakenOnSpringBoot3() {
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.store=memory", "modelgate.idempotency.routes[0].method=POST",
					"modelgate.idempotency.routes[0].path=/v1/chat/completions",
					"modelgate.idempotency.routes[0].required=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(IdempotentHandlerResolver.class).hasKeyRequiredHandlers()).isTrue();
			});
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.store=memory", "modelgate.idempotency.routes[0].method=FETCH",
					"modelgate.idempotency.routes[0].path=/orders/{id")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new InvalidIdempotencySettingsFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription())
					.contains("modelgate.idempotency.routes[0].method must be an HTTP method")
					.contains("modelgate.idempotency.routes[0].path must be a path pattern");
			});
	}

	@Test
	void autoPicksRedisConfiguredBySpringBoot3() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(RedisAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=" + RedisTestServer.host(),
					"spring.data.redis.port=" + RedisTestServer.port())
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(IdempotencyFilter.class);
				assertThat(context.getBean(IdempotencyStore.class)).isInstanceOf(RedisIdempotencyStore.class);
			});
	}

	@Test
	void autoPicksPostgresqlDataSourceConfiguredBySpringBoot3() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=" + postgresqlUrl(),
					"spring.datasource.username=" + env("PGUSER", "postgres"),
					"modelgate.idempotency.jdbc.initialize-schema=always")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(IdempotencyStore.class)).isInstanceOf(JdbcIdempotencyStore.class);
			});
	}

	@Test
	void withoutAStoreStartUpFailsAndSaysHowToGiveItOne() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().isInstanceOf(NoIdempotencyStoreException.class);
			FailureAnalysis analysis = new NoIdempotencyStoreFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("neither a RedisConnectionFactory nor a DataSource");
			assertThat(analysis.getAction()).contains("spring.data.redis.host", "store=memory");
		});
	}

	@Test
	void problemsAreWrittenWithTheApplicationsJackson2ObjectMapper() {
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.store=memory", "spring.jackson.serialization.indent-output=true")
			.run((context) -> {
				IdempotencyProblemRenderer renderer = context.getBean(IdempotencyProblemRenderer.class);
				assertThat(renderer).isInstanceOf(ProblemDetailRenderer.class);
				MockHttpServletResponse response = new MockHttpServletResponse();
				renderer.render(IdempotencyProblem.keyReused(422), new MockHttpServletRequest("POST", "/orders"),
						response);
				assertThat(response.getContentType()).startsWith("application/problem+json");
				// Indented: written by the ObjectMapper Spring Boot 3 configured from spring.jackson.*.
				assertThat(response.getContentAsString()).contains("\n  \"code\" : \"idempotency_key_reused\"");
			});
	}

	@Test
	void healthIsSpringBoot3sAndCanBeSwitchedOff() {
		this.contextRunner.withPropertyValues("modelgate.idempotency.store=memory").run((context) -> {
			HealthIndicator health = context.getBean("idempotencyHealthIndicator", HealthIndicator.class);
			assertThat(health).isInstanceOf(IdempotencyStoreHealthIndicator.class);
			assertThat(health.health().getStatus()).isEqualTo(Status.UP);
			assertThat(health.health().getDetails()).containsEntry("store", "memory");
		});
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.store=memory", "management.health.idempotency.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(IdempotencyStoreHealthIndicator.class));
	}

	@Test
	void storeCallsAreTimedAfterSpringBoot3sMetricsAutoConfiguration() {
		this.contextRunner
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
					ObservationAutoConfiguration.class))
			.withPropertyValues("modelgate.idempotency.store=memory")
			.run((context) -> {
				assertThat(context).hasSingleBean(MicrometerIdempotencyListener.class);
				context.getBean(IdempotencyCoordinator.class)
					.begin("scope", "fp", Duration.ofSeconds(30), Duration.ZERO)
					.lease()
					.release();
				assertThat(context.getBean(MeterRegistry.class)
					.get(DefaultIdempotencyStoreObservationConvention.NAME)
					.tags("operation", "begin", "result", "acquired", "store", "memory")
					.timer()
					.count()).isEqualTo(1);
			});
	}

	@Test
	void endpointAndOpenApiCustomizerOnSpringBoot3() {
		this.contextRunner
			.withConfiguration(
					AutoConfigurations.of(EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class))
			.withPropertyValues("modelgate.idempotency.store=memory", "management.endpoint.idempotency.access=READ_ONLY",
					"management.endpoints.web.exposure.include=idempotency")
			.run((context) -> assertThat(context).hasSingleBean(IdempotencyEndpoint.class)
				.hasSingleBean(IdempotencyOperationCustomizer.class));
	}

	@Test
	void idempotentOperationKeepsResultsAsJackson2Json() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class,
					ModelgateIdempotencyOperationsAutoConfiguration.class, JacksonAutoConfiguration.class))
			.withPropertyValues("modelgate.idempotency.store=memory")
			.withUserConfiguration(TicketConfiguration.class)
			.run((context) -> {
				TicketDesk desk = context.getBean(TicketDesk.class);
				String key = UUID.randomUUID().toString();
				Ticket first = desk.open(key, "printer");
				Ticket retry = desk.open(key, "printer");
				assertThat(retry).isEqualTo(first).isNotSameAs(first);
				List<Ticket> batch = desk.openAll(key, List.of("a", "b"));
				assertThat(desk.openAll(key, List.of("a", "b"))).isEqualTo(batch)
					.allSatisfy((ticket) -> assertThat(ticket).isInstanceOf(Ticket.class));
				assertThat(desk.runs()).isEqualTo(2);
			});
	}

	private static String postgresqlUrl() {
		return "jdbc:postgresql://" + env("PGHOST", "127.0.0.1") + ":" + env("PGPORT", "5432") + "/"
				+ env("PGDATABASE", "test");
	}

	private static String env(String name, String fallback) {
		String value = System.getenv(name);
		return (value != null && !value.isBlank()) ? value : fallback;
	}

	@Configuration(proxyBeanMethods = false)
	static class TicketConfiguration {

		@Bean
		TicketDesk ticketDesk() {
			return new TicketDesk();
		}

	}

	static class TicketDesk {

		private final AtomicInteger runs = new AtomicInteger();

		public int runs() {
			return this.runs.get();
		}

		@IdempotentOperation(key = "#key")
		public Ticket open(String key, String subject) {
			return new Ticket(UUID.randomUUID().toString(), subject, this.runs.incrementAndGet());
		}

		@IdempotentOperation(scope = "batch", key = "#key")
		public List<Ticket> openAll(String key, List<String> subjects) {
			int run = this.runs.incrementAndGet();
			return subjects.stream().map((subject) -> new Ticket(UUID.randomUUID().toString(), subject, run)).toList();
		}

	}

	record Ticket(String id, String subject, int run) {
	}

}
