package dev.modelgate.idempotency.autoconfigure;

import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;
import dev.modelgate.idempotency.testsupport.RedisTestServer;
import dev.modelgate.idempotency.web.servlet.ClientIdentityResolver;
import dev.modelgate.idempotency.web.servlet.IdempotencyFilter;
import dev.modelgate.idempotency.web.servlet.IdempotencyProblemRenderer;
import dev.modelgate.idempotency.web.servlet.IdempotentHandlerResolver;
import dev.modelgate.idempotency.web.ResponsePolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * Every condition of {@link ModelgateIdempotencyAutoConfiguration}: which store is chosen, backing off
 * to user beans, switching off, and failing start-up with a message that says how to fix it.
 */
@Tag("boot")
@ExtendWith(OutputCaptureExtension.class)
class ModelgateIdempotencyAutoConfigurationTests {

	private static final String ANONYMOUS_WARNING = "client-identity-header is not set";

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class, JacksonAutoConfiguration.class));

	private final WebApplicationContextRunner redisContextRunner = this.contextRunner
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.host=" + RedisTestServer.host(),
				"spring.data.redis.port=" + RedisTestServer.port());

	private final WebApplicationContextRunner mvcContextRunner = this.contextRunner
		.withConfiguration(AutoConfigurations.of(HttpMessageConvertersAutoConfiguration.class,
				WebMvcAutoConfiguration.class, DispatcherServletAutoConfiguration.class))
		.withPropertyValues("modelgate.idempotency.store=memory");

	@Test
	void memoryStoreConfiguresInMemoryStoreCoordinatorAndFilter() {
		this.contextRunner.withPropertyValues("modelgate.idempotency.store=memory").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(IdempotencyStore.class);
			assertThat(context).hasSingleBean(InMemoryIdempotencyStore.class);
			assertThat(context).hasSingleBean(IdempotencyCoordinator.class);
			assertThat(context).hasSingleBean(IdempotencyFilter.class);
			assertThat(context).hasSingleBean(ClientIdentityResolver.class);
			assertThat(context).hasSingleBean(ResponsePolicy.class);
			assertThat(context).hasSingleBean(IdempotencyProblemRenderer.class);
			assertThat(context).hasSingleBean(IdempotentHandlerResolver.class);
		});
	}

	/**
	 * The filter's timers are the context's to start and stop, and are no {@code TaskScheduler} or
	 * {@code ScheduledExecutorService} bean, which would become the application's scheduler.
	 */
	@Test
	void filterTimersLiveAndDieWithTheContextAndAreNoScheduler() {
		AtomicReference<ScheduledExecutorService> timers = new AtomicReference<>();
		this.contextRunner.withPropertyValues("modelgate.idempotency.store=memory").run((context) -> {
			assertThat(context).hasSingleBean(IdempotencyTimers.class);
			assertThat(context).doesNotHaveBean(TaskScheduler.class);
			assertThat(context).doesNotHaveBean(ScheduledExecutorService.class);
			timers.set(context.getBean(IdempotencyTimers.class).executor());
			assertThat(timers.get().isShutdown()).isFalse();
		});
		assertThat(timers.get().isShutdown()).isTrue();
	}

	@Test
	void filterRunsAfterSpringSecurityFilterChain() {
		// Spring Security's filter chain is registered at order -100 (SecurityProperties.DEFAULT_FILTER_ORDER).
		this.contextRunner.withPropertyValues("modelgate.idempotency.store=memory")
			.run((context) -> assertThat(context.getBean(IdempotencyFilter.class).getOrder()).isGreaterThan(-100));
	}

	@Test
	void responsePolicyFollowsProperties() {
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.store=memory", "modelgate.idempotency.release-statuses=404",
					"modelgate.idempotency.record-server-errors=true")
			.run((context) -> {
				ResponsePolicy policy = context.getBean(ResponsePolicy.class);
				assertThat(policy.shouldRecord(404)).isFalse();
				assertThat(policy.shouldRecord(429)).isTrue();
				assertThat(policy.shouldRecord(500)).isTrue();
			});
	}

	@Test
	void defaultResponsePolicyReleasesRetryableStatusesAndServerErrors() {
		this.contextRunner.withPropertyValues("modelgate.idempotency.store=memory").run((context) -> {
			ResponsePolicy policy = context.getBean(ResponsePolicy.class);
			assertThat(policy.shouldRecord(201)).isTrue();
			assertThat(policy.shouldRecord(422)).isTrue();
			assertThat(policy.shouldRecord(408)).isFalse();
			assertThat(policy.shouldRecord(409)).isFalse();
			assertThat(policy.shouldRecord(425)).isFalse();
			assertThat(policy.shouldRecord(429)).isFalse();
			assertThat(policy.shouldRecord(500)).isFalse();
		});
	}

	@Test
	void redisStoreUsesTheApplicationsRedisWithTheConfiguredKeyPrefix() {
		String prefix = "modelgate:autoconfig-test:" + UUID.randomUUID() + ":";
		this.redisContextRunner
			.withPropertyValues("modelgate.idempotency.store=redis", "modelgate.idempotency.redis.key-prefix=" + prefix)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).hasSingleBean(IdempotencyStore.class);
				assertThat(context).hasSingleBean(RedisIdempotencyStore.class);
				assertThat(context).hasSingleBean(IdempotencyFilter.class);
				IdempotencyStore store = context.getBean(IdempotencyStore.class);
				String scope = "0".repeat(64);
				String token = UUID.randomUUID().toString();
				assertThat(store.begin(scope, "fp", token, Duration.ofMinutes(1)).outcome())
					.isEqualTo(BeginResult.Outcome.ACQUIRED);
				try {
					assertThat(context.getBean(StringRedisTemplate.class).hasKey(prefix + scope)).isTrue();
				}
				finally {
					store.release(scope, token);
				}
			});
	}

	@Test
	void autoStorePicksRedisWhenRedisIsConfigured() {
		this.redisContextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(RedisIdempotencyStore.class);
			assertThat(context).doesNotHaveBean(InMemoryIdempotencyStore.class);
		});
	}

	@Test
	void explicitAutoStorePicksRedisWhenRedisIsConfigured() {
		this.redisContextRunner.withPropertyValues("modelgate.idempotency.store=auto")
			.run((context) -> assertThat(context).hasSingleBean(RedisIdempotencyStore.class));
	}

	@Test
	void memoryStoreAskedForByNameWinsOverRedis() {
		this.redisContextRunner.withPropertyValues("modelgate.idempotency.store=memory").run((context) -> {
			assertThat(context).hasSingleBean(IdempotencyStore.class);
			assertThat(context).hasSingleBean(InMemoryIdempotencyStore.class);
		});
	}

	@Test
	void backsOffToUserDefinedStore() {
		this.redisContextRunner.withUserConfiguration(UserStoreConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(IdempotencyStore.class);
			assertThat(context.getBean(IdempotencyStore.class)).isSameAs(context.getBean("userStore"));
			assertThat(context).doesNotHaveBean(RedisIdempotencyStore.class);
			assertThat(context).hasSingleBean(IdempotencyFilter.class);
		});
	}

	@Test
	void userDefinedStoreNeedsNoRedisAndNoDataSource() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.data.redis"))
			.withUserConfiguration(UserStoreConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).hasSingleBean(IdempotencyStore.class);
				assertThat(context).hasSingleBean(IdempotencyCoordinator.class);
			});
	}

	@Test
	void backsOffToUserDefinedWebBeans() {
		this.contextRunner.withPropertyValues("modelgate.idempotency.store=memory")
			.withUserConfiguration(UserWebBeansConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).hasSingleBean(ClientIdentityResolver.class);
				assertThat(context.getBean(ClientIdentityResolver.class))
					.isSameAs(context.getBean("userIdentityResolver"));
				assertThat(context).hasSingleBean(ResponsePolicy.class);
				assertThat(context.getBean(ResponsePolicy.class)).isSameAs(context.getBean("userResponsePolicy"));
				assertThat(context).hasSingleBean(IdempotencyProblemRenderer.class);
				assertThat(context.getBean(IdempotencyProblemRenderer.class))
					.isSameAs(context.getBean("userProblemRenderer"));
				assertThat(context).hasSingleBean(IdempotencyFilter.class);
			});
	}

	@Test
	void backsOffToUserDefinedFilter() {
		this.contextRunner.withPropertyValues("modelgate.idempotency.store=memory")
			.withUserConfiguration(UserFilterConfiguration.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(IdempotencyFilter.class);
				assertThat(context.getBean(IdempotencyFilter.class)).isSameAs(context.getBean("userFilter"));
			});
	}

	@Test
	void backsOffToUserDefinedCoordinator() {
		this.contextRunner.withPropertyValues("modelgate.idempotency.store=memory")
			.withUserConfiguration(UserCoordinatorConfiguration.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(IdempotencyCoordinator.class);
				assertThat(context.getBean(IdempotencyCoordinator.class)).isSameAs(context.getBean("userCoordinator"));
			});
	}

	@Test
	void disabledConfiguresNothing() {
		this.redisContextRunner.withPropertyValues("modelgate.idempotency.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(IdempotencyFilter.class);
			assertThat(context).doesNotHaveBean(IdempotencyStore.class);
			assertThat(context).doesNotHaveBean(IdempotencyCoordinator.class);
			assertThat(context).doesNotHaveBean(ModelgateIdempotencyProperties.class);
		});
	}

	@Test
	void disabledDoesNotFailWithoutAStore() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.data.redis"))
			.withPropertyValues("modelgate.idempotency.enabled=false")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(IdempotencyStore.class);
			});
	}

	@Test
	void autoStoreWithoutRedisOnTheClasspathAndWithoutDataSourceFailsStartUpWithAdvice() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.data.redis"))
			.run((context) -> {
				assertThat(context).hasFailed();
				NoIdempotencyStoreException cause = noStoreCause(context.getStartupFailure());
				assertThat(cause.getStoreType()).isEqualTo(ModelgateIdempotencyProperties.StoreType.AUTO);
				FailureAnalysis analysis = new NoIdempotencyStoreFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("RedisConnectionFactory").contains("DataSource");
				assertThat(analysis.getAction()).contains("modelgate.idempotency.store=memory")
					.contains("spring-boot-starter-data-redis")
					.contains("IdempotencyStore");
			});
	}

	@Test
	void autoStoreWithRedisOnTheClasspathButNotConfiguredFailsStartUp() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasFailed();
			assertThat(noStoreCause(context.getStartupFailure()).getStoreType())
				.isEqualTo(ModelgateIdempotencyProperties.StoreType.AUTO);
		});
	}

	@Test
	void redisStoreWithoutRedisConnectionFactoryFailsStartUpWithAdvice() {
		this.contextRunner.withPropertyValues("modelgate.idempotency.store=redis").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(noStoreCause(context.getStartupFailure()).getStoreType())
				.isEqualTo(ModelgateIdempotencyProperties.StoreType.REDIS);
			FailureAnalysis analysis = new NoIdempotencyStoreFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("modelgate.idempotency.store=redis")
				.contains("RedisConnectionFactory");
			assertThat(analysis.getAction()).contains("modelgate.idempotency.store=memory");
		});
	}

	@Test
	void failureAnalyzerIsRegistered() {
		// Other analyzers need constructor arguments that only Spring Boot's FailureAnalyzers supplies.
		List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation(getClass().getClassLoader())
			.load(FailureAnalyzer.class, null, (factoryType, implementationName, failure) -> {
			});
		assertThat(analyzers).hasAtLeastOneElementOfType(NoIdempotencyStoreFailureAnalyzer.class);
	}

	@Test
	void nonWebApplicationGetsCoordinatorButNoFilter() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class))
			.withPropertyValues("modelgate.idempotency.store=memory")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).hasSingleBean(IdempotencyCoordinator.class);
				assertThat(context).hasSingleBean(InMemoryIdempotencyStore.class);
				assertThat(context).doesNotHaveBean(IdempotencyFilter.class);
				assertThat(context).doesNotHaveBean(ClientIdentityResolver.class);
			});
	}

	@Test
	void warnsOnceThatUnauthenticatedClientsShareOneScopeWhenNoIdentityHeaderIsSet(CapturedOutput output) {
		this.contextRunner.withPropertyValues("modelgate.idempotency.store=memory").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).containsOnlyOnce(ANONYMOUS_WARNING);
			assertThat(output).contains("WARN");
		});
	}

	@Test
	void doesNotWarnWhenIdentityHeaderIsSet(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.store=memory",
					"modelgate.idempotency.client-identity-header=Authorization")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).hasSingleBean(IdempotencyFilter.class);
				assertThat(output).doesNotContain(ANONYMOUS_WARNING);
			});
	}

	@Test
	void doesNotWarnWhenUserDefinesClientIdentityResolver(CapturedOutput output) {
		this.contextRunner.withPropertyValues("modelgate.idempotency.store=memory")
			.withUserConfiguration(UserWebBeansConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).doesNotContain(ANONYMOUS_WARNING);
			});
	}

	@ParameterizedTest
	@CsvSource({ "share, one anonymous idempotency key space", "skip, without idempotency protection" })
	void warnsOnceWhenUnidentifiedClientsMayShareOrSkip(String policy, String warning, CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.store=memory",
					"modelgate.idempotency.client-identity-header=Authorization",
					"modelgate.idempotency.unidentified-clients=" + policy)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).containsOnlyOnce("unidentified-clients=" + policy).contains(warning);
			});
	}

	@Test
	void doesNotWarnWhenUnidentifiedClientsAreRejected(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.store=memory",
					"modelgate.idempotency.client-identity-header=Authorization")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).doesNotContain("unidentified-clients=");
			});
	}

	@Test
	void annotatedHandlerIsFoundAtStartUp() {
		this.mvcContextRunner.withUserConfiguration(ValidController.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(IdempotentHandlerResolver.class).hasIdempotentHandlers()).isTrue();
		});
	}

	@Test
	void invalidTtlOnAnnotationFailsStartUpNamingTheMethod() {
		this.mvcContextRunner.withUserConfiguration(BananaTtlController.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(messages(context.getStartupFailure())).anySatisfy((message) -> assertThat(message)
				.contains("@Idempotent")
				.contains(BananaTtlController.class.getName() + "#create")
				.contains("ttl")
				.contains("'banana'"));
		});
	}

	@Test
	void nonPositiveLeaseTtlOnAnnotationFailsStartUpSayingItMustBePositive() {
		this.mvcContextRunner.withUserConfiguration(ZeroLeaseController.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(messages(context.getStartupFailure())).anySatisfy((message) -> assertThat(message)
				.contains(ZeroLeaseController.class.getName() + "#create")
				.contains("leaseTtl")
				.contains("must be positive"));
		});
	}

	@Test
	void negativeDurationsOnAnnotationFailStartUpNamingTheMethodAndWhatTheAttributeTakes() {
		this.mvcContextRunner.withUserConfiguration(NegativeDurationsController.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(messages(context.getStartupFailure())).anySatisfy((message) -> assertThat(message)
				.startsWith("@Idempotent on " + NegativeDurationsController.class.getName() + "#create()")
				.contains("must be positive, was '-")
				.contains("write a positive duration such as 30s, 24h or PT5M, or leave it empty for the global "
						+ "setting"));
		});
	}

	@Test
	void globalInProgressAppliesToEndpointsThatLeaveItToTheDefault() {
		this.mvcContextRunner.withPropertyValues("modelgate.idempotency.in-progress=wait",
				"modelgate.idempotency.wait-timeout=3s")
			.withUserConfiguration(InProgressController.class)
			.run((context) -> {
				IdempotentHandlerResolver resolver = context.getBean(IdempotentHandlerResolver.class);
				assertThat(resolver.resolve(new MockHttpServletRequest("POST", "/default")).waitTimeout())
					.isEqualTo(Duration.ofSeconds(3));
				assertThat(resolver.resolve(new MockHttpServletRequest("POST", "/reject")).waitTimeout()).isZero();
			});
	}

	@Test
	void endpointsRejectDuplicatesInProgressByDefault() {
		this.mvcContextRunner.withUserConfiguration(InProgressController.class).run((context) -> {
			IdempotentHandlerResolver resolver = context.getBean(IdempotentHandlerResolver.class);
			assertThat(resolver.resolve(new MockHttpServletRequest("POST", "/default")).waitTimeout()).isZero();
		});
	}

	@Test
	void invalidIgnoreFieldsPointerFailsStartUpNamingTheMethod() {
		this.mvcContextRunner.withUserConfiguration(BadPointerController.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(messages(context.getStartupFailure())).anySatisfy((message) -> assertThat(message)
				.contains(BadPointerController.class.getName() + "#create")
				.contains("'metadata.request_id'"));
		});
	}

	@Test
	void healthToggleIsDescribedLikeSpringBootsOwn() throws IOException {
		JsonNode toggle = null;
		for (JsonNode property : modelgateMetadata().get("properties")) {
			if (property.get("name").asString().equals("management.health.idempotency.enabled")) {
				toggle = property;
			}
		}
		assertThat(toggle).as("management.health.idempotency.enabled in the metadata").isNotNull();
		assertThat(toggle.get("type").asString()).isEqualTo("java.lang.Boolean");
		assertThat(toggle.get("defaultValue").booleanValue()).isTrue();
		assertThat(toggle.get("description").asString()).startsWith("Whether to enable");
	}

	@Test
	void configurationMetadataDescribesEveryPropertyWithItsDefault() throws IOException {
		Map<String, JsonNode> metadata = new LinkedHashMap<>();
		for (JsonNode property : modelgateMetadata().get("properties")) {
			// The same file also describes the idempotency endpoint's management.* access property.
			if (property.get("name").asString().startsWith("modelgate.")) {
				metadata.put(property.get("name").asString(), property);
			}
		}
		List<String> expectedNames = propertyNames("modelgate.idempotency", ModelgateIdempotencyProperties.class);
		assertThat(expectedNames).contains("modelgate.idempotency.lease-ttl", "modelgate.idempotency.redis.key-prefix",
				"modelgate.idempotency.jdbc.table-name");
		assertThat(metadata).containsOnlyKeys(expectedNames);
		assertThat(metadata.values()).allSatisfy((property) -> assertThat(property.path("description").asString())
			.as(property.get("name").asString())
			.isNotBlank());
		Map<String, Object> defaults = new LinkedHashMap<>();
		defaults.put("modelgate.idempotency.enabled", true);
		defaults.put("modelgate.idempotency.store", "auto");
		defaults.put("modelgate.idempotency.header-name", "Idempotency-Key");
		defaults.put("modelgate.idempotency.key-max-length", 255);
		defaults.put("modelgate.idempotency.ttl", "24h");
		// Off: a retry after the ttl runs again, as before spent keys existed (docs/CONFIGURATION.md says why).
		defaults.put("modelgate.idempotency.spent-key-retention", 0);
		defaults.put("modelgate.idempotency.lease-ttl", "30s");
		defaults.put("modelgate.idempotency.retry-after", "1s");
		defaults.put("modelgate.idempotency.in-progress", "reject");
		defaults.put("modelgate.idempotency.wait-timeout", "10s");
		defaults.put("modelgate.idempotency.max-request-size", "1MB");
		defaults.put("modelgate.idempotency.max-response-size", "1MB");
		defaults.put("modelgate.idempotency.operation-timeout", "2s");
		defaults.put("modelgate.idempotency.mismatch-status", 422);
		defaults.put("modelgate.idempotency.replayed-header-name", "Idempotent-Replayed");
		defaults.put("modelgate.idempotency.release-statuses", List.of(408, 409, 425, 429));
		defaults.put("modelgate.idempotency.record-server-errors", false);
		defaults.put("modelgate.idempotency.redis.key-prefix", "modelgate:idempotency:");
		defaults.put("modelgate.idempotency.redis.require-noeviction", false);
		defaults.put("modelgate.idempotency.redis.fail-fast", true);
		defaults.put("modelgate.idempotency.redis.max-reconnect-delay", "1s");
		defaults.put("modelgate.idempotency.jdbc.table-name", "modelgate_idempotency");
		defaults.put("modelgate.idempotency.jdbc.initialize-schema", "embedded");
		defaults.put("modelgate.idempotency.jdbc.purge-interval", "5m");
		defaults.put("modelgate.idempotency.jdbc.synchronous-commit", false);
		defaults.put("modelgate.idempotency.redis.replica-acknowledgements", 0);
		defaults.put("modelgate.idempotency.redis.replica-acknowledgement-timeout", "500ms");
		defaults.put("modelgate.idempotency.memory.max-entries", 10000);
		defaults.put("modelgate.idempotency.unidentified-clients", "reject");
		defaults.put("modelgate.idempotency.memory.max-bytes", "64MB");
		defaults.put("modelgate.idempotency.stream.max-events", 10000);
		defaults.put("modelgate.idempotency.stream.max-bytes", "8MB");
		defaults.put("modelgate.idempotency.stream.max-duration", "10m");
		defaults.put("modelgate.idempotency.stream.poll-interval", "100ms");
		defaults.put("modelgate.idempotency.stream.head-wait", "30s");
		defaults.put("modelgate.idempotency.stream.max-followers", 100);
		defaults.put("modelgate.idempotency.reactive.store-threads", 16);
		defaults.put("modelgate.idempotency.reactive.store-queue-capacity", 256);
		defaults.put("modelgate.idempotency.listener-requeue-delay", "1s");
		defaults.put("modelgate.idempotency.spring-ai.enabled", true);
		defaults.put("modelgate.idempotency.spring-ai.all-tools", false);
		defaults.put("modelgate.idempotency.spring-ai.record-model-rounds", false);
		// Unset by default: no identity header, no headers beyond the built-in allowlist, no encryption,
		// no status resource.
		List<String> withoutDefault = List.of("modelgate.idempotency.client-identity-header",
				"modelgate.idempotency.status-path",
				"modelgate.idempotency.replay-headers", "modelgate.idempotency.routes",
				"modelgate.idempotency.listeners", "modelgate.idempotency.encryption.active-key-id",
				"modelgate.idempotency.encryption.keys");
		assertThat(expectedNames).containsExactlyInAnyOrderElementsOf(concat(defaults.keySet(), withoutDefault));
		JsonMapper mapper = JsonMapper.builder().build();
		defaults.forEach((name, value) -> assertThat(metadata.get(name).get("defaultValue"))
			.as("default of %s", name)
			.isEqualTo(mapper.valueToTree(value)));
		withoutDefault.forEach((name) -> assertThat(metadata.get(name).has("defaultValue")).as(name).isFalse());
	}

	static JsonNode modelgateMetadata() throws IOException {
		JsonMapper mapper = JsonMapper.builder().build();
		List<URL> resources = Collections.list(ModelgateIdempotencyAutoConfigurationTests.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json"));
		for (URL resource : resources) {
			try (InputStream in = resource.openStream()) {
				JsonNode metadata = mapper.readTree(in);
				for (JsonNode group : metadata.path("groups")) {
					if ("modelgate.idempotency".equals(group.path("name").asString())) {
						return metadata;
					}
				}
			}
		}
		throw new AssertionError("No META-INF/spring-configuration-metadata.json describes modelgate.idempotency "
				+ "among " + resources);
	}

	/** Names of the bindable properties of a properties class, nested classes included, in kebab case. */
	private static List<String> propertyNames(String prefix, Class<?> type) {
		List<String> names = new ArrayList<>();
		for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(type)) {
			if (descriptor.getReadMethod() == null || descriptor.getName().equals("class")) {
				continue;
			}
			String name = prefix + "." + kebab(descriptor.getName());
			Class<?> propertyType = descriptor.getPropertyType();
			if (propertyType.getDeclaringClass() == type && !propertyType.isEnum()) {
				names.addAll(propertyNames(name, propertyType));
			}
			else if (descriptor.getWriteMethod() != null) {
				names.add(name);
			}
		}
		return names;
	}

	private static String kebab(String camel) {
		return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
	}

	private static List<String> concat(Collection<String> first, List<String> second) {
		List<String> all = new ArrayList<>(first);
		all.addAll(second);
		return all;
	}

	private static NoIdempotencyStoreException noStoreCause(Throwable failure) {
		for (Throwable candidate = failure; candidate != null; candidate = candidate.getCause()) {
			if (candidate instanceof NoIdempotencyStoreException noStore) {
				return noStore;
			}
		}
		throw new AssertionError("Start-up did not fail for want of a store", failure);
	}

	private static List<String> messages(Throwable failure) {
		List<String> messages = new ArrayList<>();
		for (Throwable candidate = failure; candidate != null; candidate = candidate.getCause()) {
			messages.add(String.valueOf(candidate.getMessage()));
		}
		return messages;
	}

	@Configuration(proxyBeanMethods = false)
	static class UserStoreConfiguration {

		@Bean
		IdempotencyStore userStore() {
			return new InMemoryIdempotencyStore();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserWebBeansConfiguration {

		@Bean
		ClientIdentityResolver userIdentityResolver() {
			return (request) -> "tenant";
		}

		@Bean
		ResponsePolicy userResponsePolicy() {
			return (status) -> status < 300;
		}

		@Bean
		IdempotencyProblemRenderer userProblemRenderer() {
			return mock(IdempotencyProblemRenderer.class);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserFilterConfiguration {

		@Bean
		IdempotencyFilter userFilter() {
			return mock(IdempotencyFilter.class);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserCoordinatorConfiguration {

		@Bean(destroyMethod = "")
		IdempotencyCoordinator userCoordinator() {
			return mock(IdempotencyCoordinator.class);
		}

	}

	@RestController
	static class ValidController {

		@PostMapping("/orders")
		@Idempotent(ttl = "1h", leaseTtl = "10s", ignoreFields = "/metadata/request_id")
		ResponseEntity<String> create() {
			return ResponseEntity.ok("created");
		}

	}

	@RestController
	static class BananaTtlController {

		@PostMapping("/bananas")
		@Idempotent(ttl = "banana")
		ResponseEntity<String> create() {
			return ResponseEntity.ok("created");
		}

	}

	@RestController
	static class ZeroLeaseController {

		@PostMapping("/zero")
		@Idempotent(leaseTtl = "0s")
		ResponseEntity<String> create() {
			return ResponseEntity.ok("created");
		}

	}

	@RestController
	static class NegativeDurationsController {

		@PostMapping("/negative")
		@Idempotent(ttl = "-1s", leaseTtl = "-5s")
		ResponseEntity<String> create() {
			return ResponseEntity.ok("created");
		}

	}

	@RestController
	static class InProgressController {

		@PostMapping("/default")
		@Idempotent
		ResponseEntity<String> byDefault() {
			return ResponseEntity.ok("default");
		}

		@PostMapping("/reject")
		@Idempotent(inProgress = Idempotent.InProgress.REJECT)
		ResponseEntity<String> reject() {
			return ResponseEntity.ok("reject");
		}

	}

	@RestController
	static class BadPointerController {

		@PostMapping("/pointers")
		@Idempotent(ignoreFields = "metadata.request_id")
		ResponseEntity<String> create() {
			return ResponseEntity.ok("created");
		}

	}

}
