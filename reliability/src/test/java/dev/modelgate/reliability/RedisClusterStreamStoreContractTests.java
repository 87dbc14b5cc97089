package dev.modelgate.reliability;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;
import dev.modelgate.idempotency.test.StreamStoreContractTests;
import dev.modelgate.reliability.support.RedisCluster;

/**
 * The stream contract on a local three-master Redis Cluster the suite starts itself: a stream lives
 * in its record's own hash, so each stream script too runs on the one node that owns the key's slot.
 */
class RedisClusterStreamStoreContractTests extends StreamStoreContractTests {

	private static RedisCluster cluster;

	private static LettuceConnectionFactory connectionFactory;

	@BeforeAll
	static void startCluster() {
		cluster = RedisCluster.start("redis-cluster-stream-contract");
		connectionFactory = cluster.connectionFactory();
	}

	@AfterAll
	static void stopCluster() {
		if (connectionFactory != null) {
			connectionFactory.destroy();
		}
		if (cluster != null) {
			cluster.close();
		}
	}

	@Override
	protected IdempotencyStore createStore() {
		return new RedisIdempotencyStore(connectionFactory, "modelgate:idempotency:");
	}

}
