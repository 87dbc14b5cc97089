package dev.modelgate.reliability;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;

import dev.modelgate.idempotency.redis.RedisEvictionPolicy;
import dev.modelgate.idempotency.redis.RedisEvictionPolicyReader;
import dev.modelgate.reliability.support.RedisClusterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The eviction policy of a local three-master Redis Cluster: asked of every master, and one master that
 * evicts is enough for the answer to be its policy, since the records in its slots are at risk.
 */
@Tag("process")
class RedisClusterEvictionPolicyTests {

	@RegisterExtension
	static final RedisClusterExtension cluster = new RedisClusterExtension("redis-cluster-eviction-policy");

	@Test
	void oneMasterThatEvictsMakesTheClusterEvict() {
		assertThat(new RedisEvictionPolicyReader(cluster.connectionFactory()).read().name()).isEqualTo("noeviction");
		try (RedisClusterConnection connection = cluster.connectionFactory().getClusterConnection()) {
			RedisClusterNode master = connection.clusterGetNodes().iterator().next();
			connection.serverCommands().setConfig(master, "maxmemory-policy", "allkeys-lru");
		}
		RedisEvictionPolicy policy = new RedisEvictionPolicyReader(cluster.connectionFactory()).read();
		assertThat(policy.name()).isEqualTo("allkeys-lru");
		assertThat(policy.source()).isEqualTo(RedisEvictionPolicy.Source.CONFIG);
	}

}
