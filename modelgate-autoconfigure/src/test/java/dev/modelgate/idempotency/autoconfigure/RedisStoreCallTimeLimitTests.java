package dev.modelgate.idempotency.autoconfigure;

import java.time.Duration;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.modelgate.idempotency.core.IdempotencyStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Redis store reports the longer of Lettuce's command and connect timeouts as the limit of its
 * calls, so that the coordinator calls it directly only when both fit within
 * {@code operation-timeout}; behind Sentinel, opening a connection may ask each Sentinel first. On
 * Jedis the limit is the pool's wait plus the connect and read timeouts, and none when the pool
 * waits for ever (Boot's default).
 */
@Tag("boot")
class RedisStoreCallTimeLimitTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
				ModelgateIdempotencyAutoConfiguration.class))
		.withPropertyValues("modelgate.idempotency.store=redis");

	@Test
	void callTimeLimitIsTheConfiguredCommandTimeoutWhenLongerThanConnecting() {
		this.contextRunner.withPropertyValues("spring.data.redis.timeout=1500ms", "spring.data.redis.connect-timeout=1s")
			.run((context) -> assertThat(context.getBean(IdempotencyStore.class).callTimeLimit())
				.isEqualTo(Duration.ofMillis(1500)));
	}

	@Test
	void callTimeLimitIsTheConnectTimeoutWhenLongerThanTheCommandTimeout() {
		this.contextRunner.withPropertyValues("spring.data.redis.timeout=1500ms")
			.run((context) -> assertThat(context.getBean(IdempotencyStore.class).callTimeLimit())
				.isEqualTo(Duration.ofSeconds(10)));
	}

	@Test
	void callTimeLimitBehindSentinelAllowsAConnectTimeoutPerSentinelAndOneForThePrimary() {
		this.contextRunner
			.withPropertyValues("spring.data.redis.sentinel.master=mymaster",
					"spring.data.redis.sentinel.nodes=127.0.0.1:26379,127.0.0.1:26380,127.0.0.1:26381",
					"spring.data.redis.timeout=1s", "spring.data.redis.connect-timeout=500ms")
			.run((context) -> assertThat(context.getBean(IdempotencyStore.class).callTimeLimit())
				.isEqualTo(Duration.ofSeconds(2)));
	}

	@Test
	void callTimeLimitIsLettucesDefaultWhenNoneIsConfigured() {
		this.contextRunner.run((context) -> assertThat(context.getBean(IdempotencyStore.class).callTimeLimit())
			.isEqualTo(Duration.ofSeconds(60)));
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
