package dev.modelgate.idempotency.autoconfigure;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.LazyInitializationBeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.io.support.SpringFactoriesLoader;

import dev.modelgate.idempotency.testsupport.RedisProcess;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The eviction guard of the Redis store, against real servers started with the policy under test: a Redis
 * that may evict records is a start-up warning and a health detail, or, with require-noeviction, a start-up
 * failure saying how to fix it; noeviction is none of these; a Redis that does not answer does not stop
 * start-up.
 *
 * <p>Both Boot lines run these tests (the Boot 3 module compiles this source): a subclass names its
 * line's Redis auto-configuration, the one thing that differs.
 */
@Tag("boot")
@ExtendWith(OutputCaptureExtension.class)
abstract class AbstractRedisEvictionPolicyGuardTests {

	private static final String EVICTING_WARNING = "Redis has maxmemory-policy allkeys-lru: under memory pressure "
			+ "Redis evicts idempotency records, so a completed key runs again and a key in progress can run twice "
			+ "concurrently. Set maxmemory-policy noeviction on this Redis, or give the idempotency records a Redis "
			+ "of their own with noeviction.";

	private static RedisProcess evicting;

	private static RedisProcess keeping;

	private final LineHealth health;

	private final ApplicationContextRunner contextRunner;

	/**
	 * @param redisAutoConfiguration the Boot line's Redis auto-configuration
	 * @param health the Boot line's idempotency health
	 */
	protected AbstractRedisEvictionPolicyGuardTests(Class<?> redisAutoConfiguration, LineHealth health) {
		this.health = health;
		this.contextRunner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(redisAutoConfiguration,
					ModelgateIdempotencyAutoConfiguration.class,
					health.autoConfiguration()))
			.withPropertyValues("modelgate.idempotency.store=redis");
	}

	@BeforeAll
	static void startServers() {
		evicting = RedisProcess.start("--maxmemory", "2mb", "--maxmemory-policy", "allkeys-lru");
		assertThat(evicting.cli("ACL", "SETUSER", "no-config", "on", ">secret", "~*", "&*", "+@all", "-config"))
			.isEqualTo("OK");
		assertThat(evicting.cli("ACL", "SETUSER", "no-config-no-info", "on", ">secret", "~*", "&*", "+@all",
				"-config", "-info"))
			.isEqualTo("OK");
		keeping = RedisProcess.start("--maxmemory", "2mb", "--maxmemory-policy", "noeviction");
	}

	@AfterAll
	static void stopServers() {
		evicting.close();
		keeping.close();
	}

	@Test
	void redisThatEvictsIsOneWarningAtStartUp(CapturedOutput output) {
		this.contextRunner.withPropertyValues(redis(evicting)).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).containsOnlyOnce(EVICTING_WARNING)
				.contains("WARN")
				.contains("Set modelgate.idempotency.redis.require-noeviction=true to refuse to start instead.");
		});
	}

	@Test
	void redisThatEvictsIsUpInHealthWithItsPolicyAndAWarning() {
		this.contextRunner.withPropertyValues(redis(evicting)).run((context) -> {
			LineHealth.StoreHealth health = health(context);
			assertThat(health.status()).isEqualTo("UP");
			assertThat(health.details()).containsEntry("store", "redis")
				.containsEntry("evictionPolicy", "allkeys-lru")
				.containsEntry("warning", EVICTING_WARNING);
		});
	}

	@Test
	void requireNoevictionRefusesToStartWithARedisThatEvicts() {
		this.contextRunner.withPropertyValues(redis(evicting))
			.withPropertyValues("modelgate.idempotency.redis.require-noeviction=true")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new RedisEvictionPolicyFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).startsWith("Redis has maxmemory-policy allkeys-lru")
					.contains("a completed key runs again and a key in progress can run twice concurrently")
					.endsWith("modelgate.idempotency.redis.require-noeviction=true refuses to start with such a Redis.");
				assertThat(analysis.getAction()).contains("CONFIG SET maxmemory-policy noeviction", "redis.conf",
						"a Redis of their own", "require-noeviction=false");
			});
	}

	@Test
	void redisWithNoevictionIsNeitherAWarningNorAFailureNorAHealthWarning(CapturedOutput output) {
		this.contextRunner.withPropertyValues(redis(keeping))
			.withPropertyValues("modelgate.idempotency.redis.require-noeviction=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).doesNotContain("maxmemory-policy");
				LineHealth.StoreHealth health = health(context);
				assertThat(health.status()).isEqualTo("UP");
				assertThat(health.details()).containsEntry("evictionPolicy", "noeviction").doesNotContainKey("warning");
			});
	}

	@Test
	void userNotAllowedConfigHasThePolicyReadWithInfo(CapturedOutput output) {
		this.contextRunner.withPropertyValues(redis(evicting))
			.withPropertyValues("spring.data.redis.username=no-config", "spring.data.redis.password=secret")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).containsOnlyOnce(EVICTING_WARNING);
				assertThat(health(context).details()).containsEntry("evictionPolicy", "allkeys-lru");
			});
	}

	@Test
	void policyThatCannotBeReadIsAWarningSayingHowToLetItBeRead(CapturedOutput output) {
		this.contextRunner.withPropertyValues(redis(evicting))
			.withPropertyValues("spring.data.redis.username=no-config-no-info", "spring.data.redis.password=secret")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).containsOnlyOnce("The Redis maxmemory-policy could not be read (")
					.contains("NOPERM", "unless it is noeviction, under memory pressure Redis evicts idempotency records",
							"allow the Redis user CONFIG GET or INFO (ACL +config|get or +info)");
				LineHealth.StoreHealth health = health(context);
				assertThat(health.status()).isEqualTo("UP");
				assertThat(health.details()).containsEntry("evictionPolicy", "unknown").containsKey("warning");
			});
	}

	@Test
	void requireNoevictionRefusesToStartWhenThePolicyCannotBeRead() {
		this.contextRunner.withPropertyValues(redis(evicting))
			.withPropertyValues("spring.data.redis.username=no-config-no-info", "spring.data.redis.password=secret",
					"modelgate.idempotency.redis.require-noeviction=true")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new RedisEvictionPolicyFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).startsWith("The Redis maxmemory-policy could not be read");
				assertThat(analysis.getAction()).contains("ACL SETUSER <user> +config|get",
						"modelgate.idempotency.redis.require-noeviction=false");
			});
	}

	@Test
	void volatilePolicyWarnsThatEveryRecordHasAnExpiry(CapturedOutput output) {
		try (RedisProcess volatileLru = RedisProcess.start("--maxmemory-policy", "volatile-lru")) {
			this.contextRunner.withPropertyValues(redis(volatileLru)).run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).containsOnlyOnce("Redis has maxmemory-policy volatile-lru, which evicts keys that "
						+ "have an expiry, and every idempotency record has one");
			});
		}
	}

	@Test
	void redisThatDoesNotAnswerAtStartUpDoesNotStopTheApplicationEvenWhenNoevictionIsRequired(CapturedOutput output)
			throws IOException {
		this.contextRunner.withPropertyValues(closedPort())
			.withPropertyValues("modelgate.idempotency.redis.require-noeviction=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).containsOnlyOnce("could not be checked at start-up, Redis did not answer")
					.contains("WARN", "modelgate.idempotency.redis.require-noeviction=true is not enforced for this start");
			});
	}

	@Test
	void redisThatHangsAtStartUpDelaysItByTheOperationTimeoutOnly(CapturedOutput output) throws IOException {
		// Connections are accepted (by the backlog) and never answered, as by a hung server.
		try (ServerSocket hung = new ServerSocket(0)) {
			long started = System.nanoTime();
			this.contextRunner
				.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + hung.getLocalPort(),
						"modelgate.idempotency.operation-timeout=500ms")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					assertThat(output).containsOnlyOnce("could not be checked at start-up, Redis did not answer "
							+ "(QueryTimeoutException: no answer within PT0.5S)");
				});
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
		}
	}

	@Test
	void redisThatDoesNotAnswerAtStartUpIsNotedAtInfo(CapturedOutput output) throws IOException {
		this.contextRunner.withPropertyValues(closedPort()).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).containsOnlyOnce("could not be checked at start-up, Redis did not answer")
				.doesNotContain("is not enforced");
		});
	}

	@Test
	void redisThatEvictsIsCheckedAtStartUpEvenWithLazyInitialization(CapturedOutput output) {
		this.contextRunner.withPropertyValues(redis(evicting))
			.withInitializer((context) -> context
				.addBeanFactoryPostProcessor(new LazyInitializationBeanFactoryPostProcessor()))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).containsOnlyOnce(EVICTING_WARNING);
			});
	}

	@Test
	void anotherStoreIsNotChecked(CapturedOutput output) {
		this.contextRunner.withPropertyValues(redis(evicting))
			.withPropertyValues("modelgate.idempotency.store=memory", "modelgate.idempotency.redis.require-noeviction=true")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(RedisEvictionPolicyGuard.class);
				assertThat(output).doesNotContain("maxmemory-policy");
				assertThat(health(context).details()).doesNotContainKey("evictionPolicy");
			});
	}

	@Test
	void failureAnalyzerIsRegistered() {
		List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation(getClass().getClassLoader())
			.load(FailureAnalyzer.class, null, (factoryType, implementationName, failure) -> {
			});
		assertThat(analyzers).hasAtLeastOneElementOfType(RedisEvictionPolicyFailureAnalyzer.class);
	}

	/** The idempotency health, read with the Boot line's health API (which only the types differ in). */
	private LineHealth.StoreHealth health(AssertableApplicationContext context) {
		return this.health.read(context);
	}

	private static String[] redis(RedisProcess server) {
		return new String[] { "spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port() };
	}

	private static String[] closedPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return new String[] { "spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + socket.getLocalPort(),
					"spring.data.redis.connect-timeout=500ms" };
		}
	}

}
