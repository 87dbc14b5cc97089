package dev.modelgate.idempotency.redis;

import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Connections of the store's own, one per concurrent call, kept for the next call. A pipeline runs
 * on a connection of its own (Lettuce opens a dedicated one for it); keeping them open saves a
 * connection set-up per call (with Sentinel, a look-up of the primary too). A connection whose call
 * failed is closed, since an answer may still be on its way.
 */
final class DedicatedConnections implements AutoCloseable {

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

	@Override
	public void close() {
		for (RedisConnection connection = this.idle.pollFirst(); connection != null; connection = this.idle
			.pollFirst()) {
			this.idleCount.decrementAndGet();
			connection.close();
		}
	}

}
