package dev.modelgate.idempotency.autoconfigure;

import java.time.Duration;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.ClientOptions.DisconnectedBehavior;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Lettuce client Spring Boot builds for the Redis store refuses commands at once while
 * disconnected and reconnects at least every {@code max-reconnect-delay}; {@code fail-fast=false}
 * and another store leave it as Spring Boot configures it. The outage itself is tested on a consumer
 * application ({@code RedisOnlyOutageTests}).
 */
@Tag("boot")
abstract class AbstractRedisClientOptionsTests {

	/** Lettuce's own longest reconnect delay. */
	private static final Duration LETTUCE_LONGEST_DELAY = Duration.ofSeconds(30);

	private final ApplicationContextRunner contextRunner;

	AbstractRedisClientOptionsTests(Class<?> redisAutoConfiguration) {
		this.contextRunner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(redisAutoConfiguration, ModelgateIdempotencyAutoConfiguration.class))
			.withPropertyValues("modelgate.idempotency.store=redis");
	}

	@Test
	void lettuceRefusesCommandsWhileDisconnectedAndReconnectsAtLeastEverySecond() {
		this.contextRunner.run((context) -> {
			assertThat(options(context).getDisconnectedBehavior()).isEqualTo(DisconnectedBehavior.REJECT_COMMANDS);
			assertThat(longestReconnectDelay(context)).isEqualTo(Duration.ofSeconds(1));
		});
	}

	@Test
	void longestReconnectDelayIsConfigurable() {
		this.contextRunner.withPropertyValues("modelgate.idempotency.redis.max-reconnect-delay=250ms")
			.run((context) -> assertThat(longestReconnectDelay(context)).isEqualTo(Duration.ofMillis(250)));
	}

	@Test
	void failFastOffLeavesLettuceAsSpringBootConfiguresIt() {
		this.contextRunner.withPropertyValues("modelgate.idempotency.redis.fail-fast=false").run((context) -> {
			assertThat(options(context).getDisconnectedBehavior()).isEqualTo(DisconnectedBehavior.DEFAULT);
			assertThat(longestReconnectDelay(context)).isEqualTo(LETTUCE_LONGEST_DELAY);
		});
	}

	@Test
	void anotherStoreLeavesTheApplicationsRedisClientAlone() {
		this.contextRunner.withPropertyValues("modelgate.idempotency.store=memory").run((context) -> {
			assertThat(options(context).getDisconnectedBehavior()).isEqualTo(DisconnectedBehavior.DEFAULT);
			assertThat(longestReconnectDelay(context)).isEqualTo(LETTUCE_LONGEST_DELAY);
		});
	}

	private static ClientOptions options(AssertableApplicationContext context) {
		return context.getBean(LettuceConnectionFactory.class).getClientConfiguration().getClientOptions().orElseThrow();
	}

	private static Duration longestReconnectDelay(AssertableApplicationContext context) {
		ClientResources resources = context.getBean(ClientResources.class);
		return resources.reconnectDelay().createDelay(Long.MAX_VALUE / 2);
	}

}
