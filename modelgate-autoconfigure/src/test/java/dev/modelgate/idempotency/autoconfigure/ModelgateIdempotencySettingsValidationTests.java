package dev.modelgate.idempotency.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.validation.annotation.Validated;

import dev.modelgate.idempotency.web.servlet.IdempotentHandlerResolver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Settings that cannot work fail start-up with a message that names the property and the values it
 * takes, and settings that can work still start. The checks are the properties' own Spring Validator,
 * so they run without a Bean Validation provider, which the starter does not bring.
 */
@Tag("boot")
@ExtendWith(OutputCaptureExtension.class)
class ModelgateIdempotencySettingsValidationTests {

	/** An application with neither the Bean Validation API nor a provider. */
	private static final FilteredClassLoader WITHOUT_BEAN_VALIDATION = new FilteredClassLoader("jakarta.validation",
			"org.hibernate.validator");

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class, JacksonAutoConfiguration.class))
		.withClassLoader(WITHOUT_BEAN_VALIDATION)
		.withPropertyValues("modelgate.idempotency.store=memory");

	static Stream<Arguments> badSettings() {
		String positiveDuration = " must be a positive duration, such as ";
		String headerName = " must be an HTTP header name (letters, digits and !#$%&'*+-.^_`|~, no spaces), such as ";
		String mismatchStatus = "modelgate.idempotency.mismatch-status must be a 4xx status (400-499) other than 408, "
				+ "409, 425 and 429, such as 422";
		String releaseStatuses = "modelgate.idempotency.release-statuses only takes 4xx/5xx statuses (400-599), such "
				+ "as 408,409,425,429 (the default), not ";
		return Stream.of(
				// The settings of the issue.
				arguments("lease-ttl=0s", "modelgate.idempotency.lease-ttl" + positiveDuration + "30s"),
				arguments("lease-ttl=-5s", "modelgate.idempotency.lease-ttl" + positiveDuration + "30s"),
				arguments("ttl=-1s", "modelgate.idempotency.ttl" + positiveDuration + "24h"),
				arguments("key-max-length=-1",
						"modelgate.idempotency.key-max-length must be a positive number of characters, such as 255"),
				arguments("mismatch-status=200", mismatchStatus),
				arguments("operation-timeout=0s", "modelgate.idempotency.operation-timeout" + positiveDuration + "2s"),
				arguments("header-name=", "modelgate.idempotency.header-name" + headerName + "Idempotency-Key"),
				arguments("release-statuses=200", releaseStatuses + "200: successful and redirect responses"),
				arguments("client-identity-header=",
						"modelgate.idempotency.client-identity-header is set but blank, which would put every "
								+ "unauthenticated client in one shared key space"),
				// The rest of the checks.
				arguments("ttl=0s", "modelgate.idempotency.ttl" + positiveDuration + "24h"),
				arguments("retry-after=0s", "modelgate.idempotency.retry-after" + positiveDuration + "1s"),
				arguments("wait-timeout=-1s",
						"modelgate.idempotency.wait-timeout must be zero (answer the 409 at once) or a positive "
								+ "duration, such as 10s"),
				arguments("max-request-size=0", "modelgate.idempotency.max-request-size must be a positive size, "
						+ "such as 1MB"),
				arguments("max-response-size=-1KB", "modelgate.idempotency.max-response-size must be a positive "
						+ "size, such as 1MB"),
				arguments("key-max-length=0", "modelgate.idempotency.key-max-length must be a positive number"),
				arguments("mismatch-status=409", mismatchStatus),
				arguments("mismatch-status=429", mismatchStatus),
				arguments("mismatch-status=500", mismatchStatus),
				arguments("release-statuses=429,302,204", releaseStatuses + "302, 204"),
				arguments("release-statuses=600", releaseStatuses + "600"),
				arguments("header-name=Idempotency Key", "modelgate.idempotency.header-name" + headerName),
				arguments("header-name=Idempotency-Key:", "modelgate.idempotency.header-name" + headerName),
				arguments("client-identity-header=X Tenant",
						"modelgate.idempotency.client-identity-header" + headerName + "Authorization"),
				arguments("replayed-header-name=",
						"modelgate.idempotency.replayed-header-name" + headerName + "Idempotent-Replayed"),
				arguments("replay-headers=X-Request-Id,X Trace",
						"modelgate.idempotency.replay-headers[1]" + headerName),
				arguments("redis.key-prefix=", "modelgate.idempotency.redis.key-prefix must not be blank"),
				arguments("status-path=idempotency-status",
						"modelgate.idempotency.status-path must be a path that starts with / and does not end with "
								+ "one"),
				arguments("status-path=/idempotency-status/", "modelgate.idempotency.status-path must be a path"),
				arguments("status-path=/status/{id}", "modelgate.idempotency.status-path must be a path"),
				arguments("redis.replica-acknowledgements=-1",
						"modelgate.idempotency.redis.replica-acknowledgements must be 0 (wait for no replica, the "
								+ "default) or the number of replicas"),
				arguments("redis.replica-acknowledgement-timeout=0s",
						"modelgate.idempotency.redis.replica-acknowledgement-timeout" + positiveDuration + "500ms"),
				arguments("jdbc.table-name=", "modelgate.idempotency.jdbc.table-name must be an unquoted SQL "
						+ "identifier"),
				arguments("jdbc.table-name=records;drop table users",
						"modelgate.idempotency.jdbc.table-name must be an unquoted SQL identifier"),
				arguments("jdbc.purge-interval=0s",
						"modelgate.idempotency.jdbc.purge-interval" + positiveDuration + "5m"),
				arguments("memory.max-entries=0",
						"modelgate.idempotency.memory.max-entries must be a positive number of records, such as "
								+ "10000"),
				arguments("memory.max-bytes=0B",
						"modelgate.idempotency.memory.max-bytes must be a positive size, such as 64MB"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("badSettings")
	void badSettingFailsStartUpNamingThePropertyAndTheValuesItTakes(String setting, String message) {
		this.contextRunner.withPropertyValues("modelgate.idempotency." + setting).run((context) -> {
			assertThat(context).hasFailed();
			Throwable failure = context.getStartupFailure();
			assertThat(validationFailure(failure).getValidationErrors().getAllErrors())
				.singleElement()
				.satisfies((error) -> assertThat(error.getDefaultMessage()).startsWith(message));
			FailureAnalysis analysis = new InvalidIdempotencySettingsFailureAnalyzer().analyze(failure);
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains(message);
		});
	}

	static Stream<Arguments> badRoutes() {
		String method = "modelgate.idempotency.routes[0].method must be an HTTP method (GET, HEAD, POST, PUT, PATCH, "
				+ "DELETE, OPTIONS or TRACE), such as POST";
		String path = "modelgate.idempotency.routes[0].path must be a path pattern";
		return Stream.of(arguments("method=FETCH", method), arguments("method=", method),
				arguments("path=orders", path + " starting with /, such as /v1/chat/completions or /orders/{id}"),
				arguments("path=/orders/{id", path + ", such as /v1/chat/completions or /orders/{id}: "),
				arguments("path=/orders/{id}/{id}", path + ", such as /v1/chat/completions or /orders/{id}: "),
				arguments("ttl=-1s", "modelgate.idempotency.routes[0].ttl must be a positive duration, such as 24h"),
				arguments("lease-ttl=0s",
						"modelgate.idempotency.routes[0].lease-ttl must be a positive duration, such as 30s"),
				arguments("ignore-fields=/ok,no-slash", "modelgate.idempotency.routes[0].ignore-fields[1] must be a JSON "
						+ "Pointer (RFC 6901), such as /metadata/request_id"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("badRoutes")
	void badRouteFailsStartUpNamingThePropertyAndTheValuesItTakes(String setting, String message) {
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.routes[0].method=POST",
					"modelgate.idempotency.routes[0].path=/orders", "modelgate.idempotency.routes[0]." + setting)
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable failure = context.getStartupFailure();
				assertThat(validationFailure(failure).getValidationErrors().getAllErrors())
					.singleElement()
					.satisfies((error) -> assertThat(error.getDefaultMessage()).startsWith(message));
				FailureAnalysis analysis = new InvalidIdempotencySettingsFailureAnalyzer().analyze(failure);
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains(message);
			});
	}

	@Test
	void routeDeclaredTwiceFailsStartUp() {
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.routes[0].method=POST",
					"modelgate.idempotency.routes[0].path=/orders", "modelgate.idempotency.routes[1].method=post",
					"modelgate.idempotency.routes[1].path=/orders")
			.run((context) -> assertThat(validationFailure(context.getStartupFailure()).getValidationErrors()
				.getAllErrors()).singleElement()
				.satisfies((error) -> assertThat(error.getDefaultMessage()).isEqualTo(
						"modelgate.idempotency.routes[1].path repeats the method and path of routes[0] (POST /orders): "
								+ "declare each route once")));
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "in-progress=sometimes", "on-store-failure=retry" })
	void routeWithAnUnknownValueFailsStartUpNamingTheProperty(String setting) {
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.routes[0].method=POST",
					"modelgate.idempotency.routes[0].path=/orders", "modelgate.idempotency.routes[0]." + setting)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(messages(context.getStartupFailure())).anySatisfy((message) -> assertThat(message)
					.contains("modelgate.idempotency.routes[0]." + setting.substring(0, setting.indexOf('='))));
			});
	}

	@Test
	void validRoutesStart() {
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.routes[0].method=POST",
					"modelgate.idempotency.routes[0].path=/v1/chat/completions",
					"modelgate.idempotency.routes[0].scope=chat", "modelgate.idempotency.routes[0].required=true",
					"modelgate.idempotency.routes[0].ttl=1h", "modelgate.idempotency.routes[0].lease-ttl=10s",
					"modelgate.idempotency.routes[0].in-progress=wait",
					"modelgate.idempotency.routes[0].ignore-fields=/user,/metadata/trace",
					"modelgate.idempotency.routes[0].on-store-failure=proceed",
					"modelgate.idempotency.routes[0].attach-to-stream=false",
					"modelgate.idempotency.routes[1].method=put", "modelgate.idempotency.routes[1].path=/orders/{id}",
					"modelgate.idempotency.routes[2].method=POST", "modelgate.idempotency.routes[2].path=/v1/**")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ModelgateIdempotencyProperties.Route route = context.getBean(ModelgateIdempotencyProperties.class)
					.getRoutes()
					.get(0);
				assertThat(route.getInProgress()).isEqualTo(ModelgateIdempotencyProperties.InProgress.WAIT);
				assertThat(route.getOnStoreFailure()).isEqualTo(ModelgateIdempotencyProperties.StoreFailure.PROCEED);
				assertThat(route.getIgnoreFields()).containsExactly("/user", "/metadata/trace");
				IdempotentHandlerResolver resolver = context.getBean(IdempotentHandlerResolver.class);
				assertThat(resolver.hasIdempotentHandlers()).isTrue();
				assertThat(resolver.hasKeyRequiredHandlers()).isTrue();
			});
	}

	@Test
	void replicaAcknowledgementTimeoutThatDoesNotFitWithinTheOperationTimeoutFailsStartUp() {
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.redis.replica-acknowledgements=1",
					"modelgate.idempotency.redis.replica-acknowledgement-timeout=2s",
					"modelgate.idempotency.operation-timeout=2s")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(validationFailure(context.getStartupFailure()).getValidationErrors().getAllErrors())
					.singleElement()
					.satisfies((error) -> assertThat(error.getDefaultMessage()).startsWith(
							"modelgate.idempotency.redis.replica-acknowledgement-timeout must be shorter than "
									+ "operation-timeout (2000ms)"));
			});
	}

	@Test
	void replicaAcknowledgementsWithinTheOperationTimeoutStart() {
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.redis.replica-acknowledgements=2",
					"modelgate.idempotency.redis.replica-acknowledgement-timeout=1s",
					"modelgate.idempotency.operation-timeout=2s")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void validSettingsStart() {
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.header-name=X-Idempotency-Key",
					"modelgate.idempotency.key-max-length=64", "modelgate.idempotency.ttl=PT1H",
					"modelgate.idempotency.lease-ttl=500ms", "modelgate.idempotency.retry-after=2s",
					"modelgate.idempotency.wait-timeout=0s", "modelgate.idempotency.in-progress=wait",
					"modelgate.idempotency.max-request-size=1B", "modelgate.idempotency.max-response-size=10MB",
					"modelgate.idempotency.operation-timeout=1ms",
					"modelgate.idempotency.client-identity-header=Authorization",
					"modelgate.idempotency.mismatch-status=400", "modelgate.idempotency.replayed-header-name=X-Replay",
					"modelgate.idempotency.replay-headers=X-Request-Id,Retry-After",
					"modelgate.idempotency.release-statuses=400,429,503,599",
					"modelgate.idempotency.redis.key-prefix=app:",
					"modelgate.idempotency.jdbc.table-name=idempotency.records",
					"modelgate.idempotency.jdbc.purge-interval=1s", "modelgate.idempotency.memory.max-entries=1",
					"modelgate.idempotency.memory.max-bytes=1B")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ModelgateIdempotencyProperties properties = context.getBean(ModelgateIdempotencyProperties.class);
				assertThat(properties.getInProgress()).isEqualTo(ModelgateIdempotencyProperties.InProgress.WAIT);
				assertThat(properties.getReplayedHeaderName()).isEqualTo("X-Replay");
			});
	}

	@Test
	void emptyReleaseStatusesRecordEveryClientError() {
		this.contextRunner.withPropertyValues("modelgate.idempotency.release-statuses=")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void defaultsStart() {
		this.contextRunner.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void propertiesAreNotValidatedThroughBeanValidation() {
		// With @Validated, Spring Boot builds a Bean Validation validator whenever the jakarta.validation API
		// is present, and that fails start-up when no provider is (springdoc brings the API alone).
		assertThat(AnnotatedElementUtils.hasAnnotation(ModelgateIdempotencyProperties.class, Validated.class))
			.isFalse();
	}

	@Test
	void checksRunWithABeanValidationProviderToo() {
		new WebApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class, JacksonAutoConfiguration.class))
			.withPropertyValues("modelgate.idempotency.store=memory", "modelgate.idempotency.mismatch-status=200")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(validationFailure(context.getStartupFailure()).getValidationErrors().getAllErrors())
					.singleElement()
					.satisfies((error) -> assertThat(error.getDefaultMessage())
						.startsWith("modelgate.idempotency.mismatch-status must be a 4xx status"));
			});
	}

	@Test
	void analysisListsEveryBadSettingWithTheValueGivenAndWhere() {
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.lease-ttl=0s", "modelgate.idempotency.mismatch-status=200",
					"modelgate.idempotency.redis.key-prefix=")
			.run((context) -> {
				FailureAnalysis analysis = new InvalidIdempotencySettingsFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).startsWith("Invalid idempotency settings:")
					.contains("modelgate.idempotency.lease-ttl must be a positive duration, such as 30s")
					.contains("given: \"0s\" in \"modelgate.idempotency.lease-ttl\" from property source")
					.contains("modelgate.idempotency.mismatch-status must be a 4xx status")
					.contains("given: \"200\"")
					.contains("modelgate.idempotency.redis.key-prefix must not be blank")
					.contains("given: \"\"");
				assertThat(analysis.getAction()).contains("Correct the settings above");
			});
	}

	@Test
	void applicationThatFailsToStartReportsTheAnalysis(CapturedOutput output) {
		SpringApplication application = new SpringApplication(MinimalApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatException().isThrownBy(() -> application.run("--spring.main.banner-mode=off",
				"--modelgate.idempotency.store=memory", "--modelgate.idempotency.lease-ttl=0s"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Invalid idempotency settings:")
			.contains("modelgate.idempotency.lease-ttl must be a positive duration, such as 30s")
			.contains("given: \"0s\" in \"modelgate.idempotency.lease-ttl\" from property source \"commandLineArgs\"")
			.contains("Correct the settings above");
	}

	@Test
	void disabledIdempotencyChecksNothing() {
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.enabled=false", "modelgate.idempotency.lease-ttl=0s")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	private static List<String> messages(Throwable failure) {
		List<String> messages = new ArrayList<>();
		for (Throwable candidate = failure; candidate != null; candidate = candidate.getCause()) {
			messages.add(String.valueOf(candidate.getMessage()));
		}
		return messages;
	}

	private static BindValidationException validationFailure(Throwable failure) {
		List<Throwable> chain = new ArrayList<>();
		for (Throwable candidate = failure; candidate != null; candidate = candidate.getCause()) {
			if (candidate instanceof BindValidationException validation) {
				return validation;
			}
			chain.add(candidate);
		}
		throw new AssertionError("Start-up did not fail on validation: " + chain, failure);
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(ModelgateIdempotencyAutoConfiguration.class)
	static class MinimalApplication {

	}

}
