package dev.modelgate.idempotency.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.ClassUtils;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties.StoreType;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;
import dev.modelgate.idempotency.redis.ReplicaAcknowledgement;

/** The Redis store, on the application's {@link RedisConnectionFactory}, with its eviction guard. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(RedisConnectionFactory.class)
@ConditionalOnBean(RedisConnectionFactory.class)
@ConditionalOnStoreType(StoreType.REDIS)
@ConditionalOnMissingBean(IdempotencyStore.class)
@Import(RedisEvictionPolicyConfiguration.class)
class RedisStoreConfiguration {

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			RedisStoreConfiguration.class.getClassLoader());

	@Bean
	RedisIdempotencyStore redisIdempotencyStore(RedisConnectionFactory connectionFactory,
			ModelgateIdempotencyProperties properties) {
		Duration commandTimeout = LETTUCE_PRESENT ? Lettuce.commandTimeout(connectionFactory) : null;
		if (properties.getRedis().getReplicaAcknowledgements() > 0 && isCluster(connectionFactory)) {
			throw new IllegalStateException("modelgate.idempotency.redis.replica-acknowledgements works with a "
					+ "standalone Redis primary and its replicas or with Sentinel, not with Redis Cluster (WAIT would "
					+ "have to go to each key's master): set it to 0, or use Sentinel");
		}
		return new RedisIdempotencyStore(connectionFactory, properties.getRedis().getKeyPrefix(), commandTimeout,
				replicaAcknowledgement(properties.getRedis()));
	}

	private static @Nullable ReplicaAcknowledgement replicaAcknowledgement(ModelgateIdempotencyProperties.Redis redis) {
		return (redis.getReplicaAcknowledgements() > 0)
				? new ReplicaAcknowledgement(redis.getReplicaAcknowledgements(), redis.getReplicaAcknowledgementTimeout())
				: null;
	}

	private static boolean isCluster(RedisConnectionFactory connectionFactory) {
		return LETTUCE_PRESENT && Lettuce.isCluster(connectionFactory);
	}

	/** Kept apart so that nothing loads Lettuce's connection factory when Lettuce is absent. */
	private static final class Lettuce {

		/**
		 * The longest a Lettuce call can take on its own: the command timeout
		 * ({@code spring.data.redis.timeout}) or, when a call has to open the connection first, the
		 * connect timeout ({@code spring.data.redis.connect-timeout}, 10s unless set), whichever is
		 * longer. Behind Sentinel, opening the connection asks the Sentinels one after another for the
		 * primary and then connects to it, so it can take one connect timeout per Sentinel and one
		 * more. Only when the result fits within {@code operation-timeout} are calls made on the
		 * request thread.
		 */
		static boolean isCluster(RedisConnectionFactory connectionFactory) {
			return connectionFactory instanceof LettuceConnectionFactory lettuce && lettuce.isClusterAware();
		}

		static @Nullable Duration commandTimeout(RedisConnectionFactory connectionFactory) {
			if (!(connectionFactory instanceof LettuceConnectionFactory lettuce)) {
				return null;
			}
			Duration command = lettuce.getClientConfiguration().getCommandTimeout();
			Duration connect = lettuce.getClientConfiguration()
				.getClientOptions()
				.map((options) -> options.getSocketOptions().getConnectTimeout())
				.orElse(io.lettuce.core.SocketOptions.DEFAULT_CONNECT_TIMEOUT_DURATION);
			RedisSentinelConfiguration sentinel = lettuce.getSentinelConfiguration();
			if (sentinel != null) {
				connect = connect.multipliedBy(sentinel.getSentinels().size() + 1L);
			}
			return (command.compareTo(connect) >= 0) ? command : connect;
		}

	}

}
