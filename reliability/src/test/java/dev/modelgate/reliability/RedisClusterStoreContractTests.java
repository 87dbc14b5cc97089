package dev.modelgate.reliability;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;


import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.test.IdempotencyStoreContractTests;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;
import dev.modelgate.reliability.support.RedisClusterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 4, first half: the store contract that every store passes, on a local three-master Redis
 * Cluster the suite starts itself. Each transition is one script on one key, so each runs on the
 * node that owns the key's slot.
 */
@Tag("process")
class RedisClusterStoreContractTests extends IdempotencyStoreContractTests {

	@RegisterExtension
	static final RedisClusterExtension cluster = new RedisClusterExtension("redis-cluster-contract");

	@Override
	protected IdempotencyStore createStore() {
		return new RedisIdempotencyStore(cluster.connectionFactory(), "modelgate:idempotency:");
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
