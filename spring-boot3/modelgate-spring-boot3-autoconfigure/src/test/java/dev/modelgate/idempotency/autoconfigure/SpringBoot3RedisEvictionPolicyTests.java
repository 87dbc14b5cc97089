package dev.modelgate.idempotency.autoconfigure;

import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.io.support.SpringFactoriesLoader;

import dev.modelgate.idempotency.testsupport.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Redis store's eviction guard on Spring Boot 3.5: after Spring Boot 3's Redis auto-configuration, in
 * Spring Boot 3's health, and with its failure analyzer registered in this line's spring.factories.
 */
@ExtendWith(OutputCaptureExtension.class)
class SpringBoot3RedisEvictionPolicyTests {

	private static RedisServerProcess evicting;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RedisAutoConfiguration.class,
				ModelgateIdempotencyAutoConfiguration.class, ModelgateIdempotencyHealthContributorAutoConfiguration.class))
		.withPropertyValues("modelgate.idempotency.store=redis");

	@BeforeAll
	static void startServer() {
		evicting = RedisServerProcess.start("--maxmemory", "2mb", "--maxmemory-policy", "allkeys-lru");
	}

	@AfterAll
	static void stopServer() {
		evicting.close();
	}

	@Test
	void redisThatEvictsIsAWarningAtStartUpAndUpInHealthWithItsPolicy(CapturedOutput output) {
		this.contextRunner.withPropertyValues(redis()).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).containsOnlyOnce("Redis has maxmemory-policy allkeys-lru: under memory pressure");
			Health health = context.getBean("idempotencyHealthIndicator", HealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("store", "redis")
				.containsEntry("evictionPolicy", "allkeys-lru")
				.containsKey("warning");
		});
	}

	@Test
	void requireNoevictionRefusesToStartWithARedisThatEvicts() {
		this.contextRunner.withPropertyValues(redis())
			.withPropertyValues("modelgate.idempotency.redis.require-noeviction=true")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new RedisEvictionPolicyFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).startsWith("Redis has maxmemory-policy allkeys-lru");
				assertThat(analysis.getAction()).contains("CONFIG SET maxmemory-policy noeviction");
			});
	}

	@Test
	void failureAnalyzerIsRegistered() {
		List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation(getClass().getClassLoader())
			.load(FailureAnalyzer.class, null, (factoryType, implementationName, failure) -> {
			});
		assertThat(analyzers).hasAtLeastOneElementOfType(RedisEvictionPolicyFailureAnalyzer.class);
	}

	private static String[] redis() {
		return new String[] { "spring.data.redis.host=" + evicting.host(),
				"spring.data.redis.port=" + evicting.port() };
	}

}
