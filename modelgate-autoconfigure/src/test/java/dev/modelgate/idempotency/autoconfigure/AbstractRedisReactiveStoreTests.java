package dev.modelgate.idempotency.autoconfigure;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.internal.BlockingIdempotencyStoreAdapter;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.redis.AsyncRedisIdempotencyStore;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;
import dev.modelgate.idempotency.testsupport.RedisTestServer;
import dev.modelgate.idempotency.web.reactive.IdempotencyWebFilter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * The reactive Redis store's auto-configuration: present in a reactive web application whose store is
 * Redis, beside the blocking store and on the same records; absent elsewhere or where the application
 * declares its own. Both Boot lines run these tests (the Boot 3 module compiles this source): a
 * subclass names its line's Redis auto-configuration, the one thing that differs.
 */
@Tag("boot")
abstract class AbstractRedisReactiveStoreTests {

	private static final Duration LONG = Duration.ofMinutes(5);

	private final Class<?> redisAutoConfiguration;

	private final LineHealth health;

	private final String prefix = "modelgate:test:" + UUID.randomUUID() + ":";

	private final ReactiveWebApplicationContextRunner reactive;

	/**
	 * @param redisAutoConfiguration the Boot line's Redis auto-configuration
	 * @param health the Boot line's idempotency health
	 */
	protected AbstractRedisReactiveStoreTests(Class<?> redisAutoConfiguration, LineHealth health) {
		this.health = health;
		this.redisAutoConfiguration = redisAutoConfiguration;
		this.reactive = new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(redisAutoConfiguration, ModelgateIdempotencyAutoConfiguration.class,
					health.autoConfiguration()))
			.withPropertyValues(redisProperties());
	}

	private String[] redisProperties() {
		return new String[] { "spring.data.redis.host=" + RedisTestServer.host(),
				"spring.data.redis.port=" + RedisTestServer.port(), "modelgate.idempotency.redis.key-prefix=" + this.prefix };
	}

	@Test
	void reactiveApplicationOnRedisGetsTheReactiveStoreOnTheBlockingStoresRecords() {
		this.reactive.withPropertyValues("modelgate.idempotency.store=redis").run((context) -> {
			assertThat(context).hasSingleBean(AsyncIdempotencyStore.class);
			assertThat(context.getBean(AsyncIdempotencyStore.class)).isInstanceOf(AsyncRedisIdempotencyStore.class);
			assertThat(context.getBean(IdempotencyStore.class)).isInstanceOf(RedisIdempotencyStore.class);
			AsyncIdempotencyStore async = context.getBean(AsyncIdempotencyStore.class);
			IdempotencyStore blocking = context.getBean(IdempotencyStore.class);
			String scope = UUID.randomUUID().toString().replace("-", "");
			String token = UUID.randomUUID().toString();
			assertThat(async.begin(scope, "fp", token, LONG).join().outcome()).isEqualTo(Outcome.ACQUIRED);
			StoredOutcome outcome = new StoredOutcome(StoredOutcome.Kind.RESPONSE, new byte[] { 0, 1, 2 });
			assertThat(blocking.complete(scope, token, outcome, LONG)).isTrue();
			CompletableFuture<BeginResult> replay = async.begin(scope, "fp", UUID.randomUUID().toString(), LONG);
			assertThat(replay.join().stored()).isEqualTo(outcome);
			blocking.delete(scope);
		});
	}

	@Test
	void webFluxFilterRunsOnTheAsyncStoreInsteadOfAPool() {
		this.reactive.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyWebFluxAutoConfiguration.class))
			.run((context) -> assertThat(context).hasSingleBean(IdempotencyWebFilter.class)
				.hasSingleBean(AsyncRedisIdempotencyStore.class)
				.doesNotHaveBean(BlockingIdempotencyStoreAdapter.class));
	}

	@Test
	void reactiveStoreIsTheAutomaticChoiceWhenRedisIs() {
		this.reactive.run((context) -> assertThat(context).hasSingleBean(AsyncRedisIdempotencyStore.class)
			.hasSingleBean(RedisIdempotencyStore.class));
	}

	@Test
	void healthIsTheBlockingStoresCheck() {
		this.reactive.run((context) -> {
			assertThat(context).hasSingleBean(this.health.indicator());
			assertThat(this.health.read(context).status()).isEqualTo("UP");
		});
	}

	@Test
	void backsOffWhenTheApplicationDeclaresAnAsyncStore() {
		AsyncIdempotencyStore own = mock(AsyncIdempotencyStore.class);
		this.reactive.withBean(AsyncIdempotencyStore.class, () -> own)
			.run((context) -> assertThat(context).getBean(AsyncIdempotencyStore.class).isSameAs(own));
	}

	@Test
	void followsTheBlockingStoreWhenItIsNotRedis() {
		this.reactive.withPropertyValues("modelgate.idempotency.store=memory")
			.run((context) -> assertThat(context).doesNotHaveBean(AsyncRedisIdempotencyStore.class));
		this.reactive.withBean(IdempotencyStore.class, InMemoryIdempotencyStore::new)
			.run((context) -> assertThat(context).doesNotHaveBean(AsyncRedisIdempotencyStore.class));
	}

	@Test
	void notInAServletApplication() {
		new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(this.redisAutoConfiguration,
					ModelgateIdempotencyAutoConfiguration.class))
			.withPropertyValues(redisProperties())
			.withPropertyValues("modelgate.idempotency.store=redis")
			.run((context) -> assertThat(context).hasSingleBean(RedisIdempotencyStore.class)
				.doesNotHaveBean(AsyncIdempotencyStore.class));
	}

	@Test
	void notInAnApplicationWithoutAWebServer() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(this.redisAutoConfiguration,
					ModelgateIdempotencyAutoConfiguration.class))
			.withPropertyValues(redisProperties())
			.withPropertyValues("modelgate.idempotency.store=redis")
			.run((context) -> assertThat(context).hasSingleBean(RedisIdempotencyStore.class)
				.doesNotHaveBean(AsyncIdempotencyStore.class));
	}

	@Test
	void notWithoutLettuceOnTheClassPath() {
		new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader(LettuceConnectionFactory.class))
			.withPropertyValues("modelgate.idempotency.store=memory")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(IdempotencyStore.class)
				.doesNotHaveBean(AsyncRedisIdempotencyStore.class));
	}

	@Test
	void replicaAcknowledgementsAreRefusedWithWhatToDoInstead() {
		this.reactive.withPropertyValues("modelgate.idempotency.store=redis",
				"modelgate.idempotency.redis.replica-acknowledgements=1")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("modelgate.idempotency.redis.replica-acknowledgements is not supported by the "
						+ "reactive Redis store")
				.hasMessageContaining("set it to 0"));
	}

}
