package dev.modelgate.idempotency.autoconfigure;

import java.time.Duration;

import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.ClassUtils;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties.StoreType;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;
import dev.modelgate.idempotency.redis.ReplicaAcknowledgement;

/**
 * The Redis store, on the application's {@link RedisConnectionFactory}, with its eviction guard and,
 * from the Spring Boot line's module, the Lettuce client's behaviour during an outage.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(RedisConnectionFactory.class)
@ConditionalOnBean(RedisConnectionFactory.class)
@ConditionalOnStoreType(StoreType.REDIS)
@ConditionalOnMissingBean(IdempotencyStore.class)
@Import({ RedisEvictionPolicyConfiguration.class, RedisClientImports.class })
class RedisStoreConfiguration {

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			RedisStoreConfiguration.class.getClassLoader());

	private static final boolean JEDIS_PRESENT = ClassUtils.isPresent("redis.clients.jedis.Jedis",
			RedisStoreConfiguration.class.getClassLoader());

	@Bean
	RedisIdempotencyStore redisIdempotencyStore(RedisConnectionFactory connectionFactory,
			ModelgateIdempotencyProperties properties) {
		Duration callTimeLimit = callTimeLimit(connectionFactory, properties.getOperationTimeout());
		if (properties.getRedis().getReplicaAcknowledgements() > 0 && isCluster(connectionFactory)) {
			throw new IllegalStateException("modelgate.idempotency.redis.replica-acknowledgements works with a "
					+ "standalone Redis primary and its replicas or with Sentinel, not with Redis Cluster (WAIT would "
					+ "have to go to each key's master): set it to 0, or use Sentinel");
		}
		return new RedisIdempotencyStore(connectionFactory, properties.getRedis().getKeyPrefix(), callTimeLimit,
				replicaAcknowledgement(properties.getRedis()));
	}

	private static @Nullable ReplicaAcknowledgement replicaAcknowledgement(ModelgateIdempotencyProperties.Redis redis) {
		return (redis.getReplicaAcknowledgements() > 0)
				? new ReplicaAcknowledgement(redis.getReplicaAcknowledgements(), redis.getReplicaAcknowledgementTimeout())
				: null;
	}

	/**
	 * On Lettuce's shared connection the store keeps {@code operation-timeout} itself, on the
	 * caller's thread, whatever the client's own timeouts (Spring Boot's default is 60 s per command).
	 * Jedis blocks in the socket, so there the limit is what its settings allow, and calls are handed
	 * to a thread that can be abandoned when that is longer than {@code operation-timeout}.
	 */
	private static @Nullable Duration callTimeLimit(RedisConnectionFactory connectionFactory,
			Duration operationTimeout) {
		if (LETTUCE_PRESENT && Lettuce.isLettuce(connectionFactory)) {
			return Lettuce.sharesItsConnection(connectionFactory) ? operationTimeout : null;
		}
		if (JEDIS_PRESENT && Jedis.isJedis(connectionFactory)) {
			return Jedis.callTimeLimit(connectionFactory);
		}
		return null;
	}

	private static boolean isCluster(RedisConnectionFactory connectionFactory) {
		return LETTUCE_PRESENT && Lettuce.isCluster(connectionFactory);
	}

	/** Kept apart so that nothing loads Lettuce's connection factory when Lettuce is absent. */
	private static final class Lettuce {

		static boolean isCluster(RedisConnectionFactory connectionFactory) {
			return connectionFactory instanceof LettuceConnectionFactory lettuce && lettuce.isClusterAware();
		}

		static boolean isLettuce(RedisConnectionFactory connectionFactory) {
			return connectionFactory instanceof LettuceConnectionFactory;
		}

		static boolean sharesItsConnection(RedisConnectionFactory connectionFactory) {
			return ((LettuceConnectionFactory) connectionFactory).getShareNativeConnection();
		}

	}

	/** Kept apart so that nothing loads Jedis's connection factory when Jedis is absent. */
	private static final class Jedis {

		static boolean isJedis(RedisConnectionFactory connectionFactory) {
			return connectionFactory instanceof JedisConnectionFactory;
		}

		/**
		 * The longest a Jedis call can take on its own: waiting for a pooled connection (the pool's
		 * {@code max-wait}), opening one (the connect timeout; without a pool, behind Sentinel, one
		 * per Sentinel asked and one for the primary), and waiting for the answer (the read timeout,
		 * {@code spring.data.redis.timeout}). {@code null} when one of them is unbounded (a pool that
		 * waits for ever, Boot's default, or a read timeout of 0) and on Redis Cluster, where Jedis
		 * retries across nodes on its own: calls are then handed to a thread that can be abandoned.
		 */
		static @Nullable Duration callTimeLimit(RedisConnectionFactory connectionFactory) {
			JedisConnectionFactory jedis = (JedisConnectionFactory) connectionFactory;
			if (jedis.isRedisClusterAware()) {
				return null;
			}
			Duration read = jedis.getClientConfiguration().getReadTimeout();
			Duration connect = jedis.getClientConfiguration().getConnectTimeout();
			if (read.isZero() || read.isNegative() || connect.isZero() || connect.isNegative()) {
				return null;
			}
			Duration wait = Duration.ZERO;
			if (jedis.getUsePool()) {
				GenericObjectPoolConfig<?> pool = jedis.getPoolConfig();
				if (pool != null && pool.getBlockWhenExhausted()) {
					wait = pool.getMaxWaitDuration();
					if (wait.isNegative()) {
						return null;
					}
				}
			}
			else if (jedis.isRedisSentinelAware()) {
				connect = connect.multipliedBy(jedis.getSentinelConfiguration().getSentinels().size() + 1L);
			}
			return wait.plus(connect).plus(read);
		}

	}

}
