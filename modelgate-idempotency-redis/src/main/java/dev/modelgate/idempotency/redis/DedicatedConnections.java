package dev.modelgate.idempotency.redis;

import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettucePoolingClientConfiguration;
import org.springframework.util.ClassUtils;

/**
 * Connections of the store's own, one per concurrent call, kept for the next call. A pipeline runs
 * on a connection of its own (Lettuce opens a dedicated one for it); keeping them open saves a
 * connection set-up per call (with Sentinel, a look-up of the primary too). A connection whose call
 * failed is closed, since an answer may still be on its way.
 */
final class DedicatedConnections implements AutoCloseable {

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			DedicatedConnections.class.getClassLoader());

	private final RedisConnectionFactory connectionFactory;

	private final int maxIdle;

	private final Deque<RedisConnection> idle = new ConcurrentLinkedDeque<>();

	private final AtomicInteger idleCount = new AtomicInteger();

	/**
	 * @param connectionFactory where the connections come from
	 * @param maxIdle how many connections to keep open between calls
	 */
	DedicatedConnections(RedisConnectionFactory connectionFactory, int maxIdle) {
		this.connectionFactory = connectionFactory;
		this.maxIdle = maxIdle;
	}

	/**
	 * Keeps up to {@code maxIdle} connections only where the factory opens a new one per pipeline
	 * (Lettuce without a pool). A pooling factory (Lettuce with a pool, Jedis) already reuses them,
	 * and connections held here would be missing from its pool for everyone else.
	 */
	static DedicatedConnections of(RedisConnectionFactory connectionFactory, int maxIdle) {
		boolean opensPerPipeline = LETTUCE_PRESENT && Lettuce.opensConnectionPerPipeline(connectionFactory);
		return new DedicatedConnections(connectionFactory, opensPerPipeline ? maxIdle : 0);
	}

	<T> T apply(Function<RedisConnection, T> call) {
		RedisConnection connection = this.idle.pollFirst();
		if (connection != null) {
			this.idleCount.decrementAndGet();
		}
		else {
			connection = this.connectionFactory.getConnection();
		}
		boolean completed = false;
		try {
			T result = call.apply(connection);
			completed = true;
			return result;
		}
		finally {
			if (completed && this.idleCount.incrementAndGet() <= this.maxIdle) {
				this.idle.offerFirst(connection);
			}
			else {
				if (completed) {
					this.idleCount.decrementAndGet();
				}
				connection.close();
			}
		}
	}

	/** Kept apart so that nothing loads Lettuce when it is absent. */
	private static final class Lettuce {

		static boolean opensConnectionPerPipeline(RedisConnectionFactory connectionFactory) {
			return connectionFactory instanceof LettuceConnectionFactory lettuce
					&& !(lettuce.getClientConfiguration() instanceof LettucePoolingClientConfiguration);
		}

	}

	@Override
	public void close() {
		for (RedisConnection connection = this.idle.pollFirst(); connection != null; connection = this.idle
			.pollFirst()) {
			this.idleCount.decrementAndGet();
			connection.close();
		}
	}

}
