package dev.modelgate.idempotency.autoconfigure;

import java.time.Duration;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.modelgate.idempotency.core.IdempotencyStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On Lettuce the Redis store keeps {@code operation-timeout} itself, whatever the client's own
 * timeouts (so the coordinator calls it on the caller's thread, without a hand-off), except on a
 * factory that shares no connection, which the coordinator bounds. On Jedis the limit is the pool's
 * wait plus the connect and read timeouts, and none when the pool waits for ever (Boot's default).
 */
@Tag("boot")
class RedisStoreCallTimeLimitTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
				ModelgateIdempotencyAutoConfiguration.class))
		.withPropertyValues("modelgate.idempotency.store=redis");

	@Test
	void lettuceCallTimeLimitIsTheOperationTimeoutWithSpringBootsDefaultTimeouts() {
		this.contextRunner.run((context) -> assertThat(context.getBean(IdempotencyStore.class).callTimeLimit())
			.isEqualTo(Duration.ofSeconds(2)));
	}

	@Test
	void lettuceCallTimeLimitIsTheOperationTimeoutWhateverTheClientsTimeouts() {
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.operation-timeout=750ms", "spring.data.redis.timeout=1500ms",
					"spring.data.redis.connect-timeout=10s")
			.run((context) -> assertThat(context.getBean(IdempotencyStore.class).callTimeLimit())
				.isEqualTo(Duration.ofMillis(750)));
	}

	@Test
	void lettuceFactoryThatSharesNoConnectionClaimsNoLimit() {
		this.contextRunner.withBean(LettuceConnectionFactory.class, () -> {
				LettuceConnectionFactory factory = new LettuceConnectionFactory();
				factory.setShareNativeConnection(false);
				return factory;
			})
			.run((context) -> assertThat(context.getBean(IdempotencyStore.class).callTimeLimit()).isNull());
	}

	@Test
	void jedisCallTimeLimitIsThePoolWaitPlusConnectingPlusReading() {
		this.contextRunner
			.withPropertyValues("spring.data.redis.client-type=jedis", "spring.data.redis.jedis.pool.max-wait=200ms",
					"spring.data.redis.timeout=1s", "spring.data.redis.connect-timeout=500ms")
			.run((context) -> assertThat(context.getBean(IdempotencyStore.class).callTimeLimit())
				.isEqualTo(Duration.ofMillis(1700)));
	}

	@Test
	void jedisWithoutAPoolWaitsForNoConnection() {
		this.contextRunner
			.withPropertyValues("spring.data.redis.client-type=jedis", "spring.data.redis.jedis.pool.enabled=false",
					"spring.data.redis.timeout=1s", "spring.data.redis.connect-timeout=500ms")
			.run((context) -> assertThat(context.getBean(IdempotencyStore.class).callTimeLimit())
				.isEqualTo(Duration.ofMillis(1500)));
	}

	@Test
	void jedisPoolThatWaitsForEverLeavesCallsUnbounded() {
		this.contextRunner.withPropertyValues("spring.data.redis.client-type=jedis")
			.run((context) -> assertThat(context.getBean(IdempotencyStore.class).callTimeLimit()).isNull());
	}

}
