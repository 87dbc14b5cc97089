package dev.modelgate.sample.redis;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.resource.Delay;

import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * How the gateway's Redis client behaves when Redis goes away, tuned for a store that answers every
 * keyed request (measured by the reliability suite, see docs/RELIABILITY.md):
 * <ul>
 * <li>While the connection is down, commands fail at once instead of queueing until the command
 * timeout: a keyed request gets its 503 immediately rather than holding a request thread for the
 * whole timeout, and a {@code begin} the gateway already gave up on is not sent later, when the
 * connection is back, to leave a lease nobody holds.</li>
 * <li>Reconnection attempts back off from 100ms to at most one second, not Lettuce's default of up to
 * 30 seconds, so that the gateway serves again within about a second of Redis coming back, however
 * long it was gone.</li>
 * </ul>
 * Spring Boot applies both only where it builds a Lettuce connection factory (the {@code redis}
 * profile); the default, memory-store profile does not use Redis.
 */
@Configuration(proxyBeanMethods = false)
class RedisClientConfiguration {

	static final Duration FIRST_RECONNECT_DELAY = Duration.ofMillis(100);

	static final Duration LONGEST_RECONNECT_DELAY = Duration.ofSeconds(1);

	@Bean
	LettuceClientOptionsBuilderCustomizer failFastWhileDisconnected() {
		return (options) -> options.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
	}

	@Bean
	ClientResourcesBuilderCustomizer quickReconnect() {
		return (resources) -> resources.reconnectDelay(Delay.exponential(FIRST_RECONNECT_DELAY, LONGEST_RECONNECT_DELAY,
				2, TimeUnit.MILLISECONDS));
	}

}
