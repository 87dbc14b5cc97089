package dev.modelgate.reliability;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.modelgate.idempotency.redis.RedisEvictionPolicy;
import dev.modelgate.idempotency.redis.RedisEvictionPolicyReader;
import dev.modelgate.reliability.support.RedisCluster;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The eviction policy of a local three-master Redis Cluster: asked of every master, and one master that
 * evicts is enough for the answer to be its policy, since the records in its slots are at risk.
 */
class RedisClusterEvictionPolicyTests {

	private static RedisCluster cluster;

	private static LettuceConnectionFactory connectionFactory;

	@BeforeAll
	static void startCluster() {
		cluster = RedisCluster.start("redis-cluster-eviction-policy");
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

	@Test
	void oneMasterThatEvictsMakesTheClusterEvict() {
		assertThat(new RedisEvictionPolicyReader(connectionFactory).read().name()).isEqualTo("noeviction");
		try (RedisClusterConnection connection = connectionFactory.getClusterConnection()) {
			RedisClusterNode master = connection.clusterGetNodes().iterator().next();
			connection.serverCommands().setConfig(master, "maxmemory-policy", "allkeys-lru");
		}
		RedisEvictionPolicy policy = new RedisEvictionPolicyReader(connectionFactory).read();
		assertThat(policy.name()).isEqualTo("allkeys-lru");
		assertThat(policy.source()).isEqualTo(RedisEvictionPolicy.Source.CONFIG);
	}

}
