package dev.modelgate.idempotency.autoconfigure;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.modelgate.idempotency.core.IdempotencyStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code modelgate.idempotency.redis.replica-acknowledgements} configures the Redis store: the
 * coordinator bounds its calls, and Redis Cluster, where it cannot work, fails start-up.
 */
@Tag("boot")
class RedisStoreReplicaAcknowledgementTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
				ModelgateIdempotencyAutoConfiguration.class))
		.withPropertyValues("modelgate.idempotency.store=redis", "modelgate.idempotency.redis.replica-acknowledgements=1");

	@Test
	void acknowledgedStoreLeavesTheCallTimeLimitToTheCoordinator() {
		this.contextRunner.withPropertyValues("spring.data.redis.timeout=1s", "spring.data.redis.connect-timeout=500ms")
			.run((context) -> assertThat(context.getBean(IdempotencyStore.class).callTimeLimit()).isNull());
	}

	@Test
	void acknowledgementsBehindSentinelStart() {
		this.contextRunner
			.withPropertyValues("spring.data.redis.sentinel.master=mymaster",
					"spring.data.redis.sentinel.nodes=127.0.0.1:26379,127.0.0.1:26380")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(IdempotencyStore.class));
	}

	@Test
	void acknowledgementsOnRedisClusterFailStartUp() {
		this.contextRunner.withPropertyValues("spring.data.redis.cluster.nodes=127.0.0.1:7000,127.0.0.1:7001")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("not with Redis Cluster"));
	}

}
