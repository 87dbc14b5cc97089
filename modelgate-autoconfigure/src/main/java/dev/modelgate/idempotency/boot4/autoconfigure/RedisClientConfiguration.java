package dev.modelgate.idempotency.boot4.autoconfigure;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.resource.Delay;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties;

/**
 * The Lettuce client of the Redis store during an outage: commands are refused at once while the
 * connection is down (a keyed request gets its 503 at once instead of after the operation timeout,
 * and no begin the filter already gave up on is sent later to leave a lease nobody holds), and
 * reconnection backs off to at most {@code modelgate.idempotency.redis.max-reconnect-delay}, not
 * Lettuce's 30 s. Spring Boot applies both where it builds the Lettuce client; an application's
 * own {@code ClientResources} or connection factory is left alone.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({ RedisClient.class, LettuceClientOptionsBuilderCustomizer.class })
@ConditionalOnBooleanProperty(name = "modelgate.idempotency.redis.fail-fast", matchIfMissing = true)
class RedisClientConfiguration {

	private static final Duration FIRST_RECONNECT_DELAY = Duration.ofMillis(100);

	@Bean
	LettuceClientOptionsBuilderCustomizer idempotencyRedisFailFast() {
		return (options) -> options.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
	}

	@Bean
	ClientResourcesBuilderCustomizer idempotencyRedisReconnectDelay(ModelgateIdempotencyProperties properties) {
		Duration longest = properties.getRedis().getMaxReconnectDelay();
		Duration first = (longest.compareTo(FIRST_RECONNECT_DELAY) < 0) ? longest : FIRST_RECONNECT_DELAY;
		return (resources) -> resources.reconnectDelay(Delay.exponential(first, longest, 2, TimeUnit.MILLISECONDS));
	}

}
