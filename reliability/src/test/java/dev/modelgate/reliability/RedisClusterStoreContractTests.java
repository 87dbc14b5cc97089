package dev.modelgate.reliability;

import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.test.IdempotencyStoreContractTests;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;
import dev.modelgate.reliability.support.RedisCluster;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 4, first half: the store contract that every store passes, on a local three-master Redis
 * Cluster the suite starts itself. Each transition is one script on one key, so each runs on the
 * node that owns the key's slot.
 */
class RedisClusterStoreContractTests extends IdempotencyStoreContractTests {

	private static RedisCluster cluster;

	private static LettuceConnectionFactory connectionFactory;

	@BeforeAll
	static void startCluster() {
		cluster = RedisCluster.start("redis-cluster-contract");
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

	@Test
	void recordsOfManyScopesSpreadOverEveryMaster() {
		IdempotencyStore store = createStore();
		for (int i = 0; i < 300; i++) {
			store.begin(scopeHash(), "fp", token(), LONG);
		}
		List<Long> keysPerNode = cluster.keysPerNode();
		assertThat(keysPerNode).hasSize(3).allSatisfy((keys) -> assertThat(keys).isGreaterThan(50));
	}

}
