package dev.modelgate.reliability;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;
import dev.modelgate.idempotency.test.StreamStoreContractTests;
import dev.modelgate.reliability.support.RedisClusterExtension;

/**
 * The stream contract on a local three-master Redis Cluster the suite starts itself: a stream lives
 * in its record's own hash, so each stream script too runs on the one node that owns the key's slot.
 */
@Tag("process")
class RedisClusterStreamStoreContractTests extends StreamStoreContractTests {

	@RegisterExtension
	static final RedisClusterExtension cluster = new RedisClusterExtension("redis-cluster-stream-contract");

	@Override
	protected IdempotencyStore createStore() {
		return new RedisIdempotencyStore(cluster.connectionFactory(), "modelgate:idempotency:");
	}

}
