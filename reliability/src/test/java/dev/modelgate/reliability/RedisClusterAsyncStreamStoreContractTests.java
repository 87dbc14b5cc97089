package dev.modelgate.reliability;

import java.time.Duration;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.redis.AsyncRedisIdempotencyStore;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;
import dev.modelgate.idempotency.test.AsyncStreamStoreContractTests;
import dev.modelgate.reliability.support.RedisClusterExtension;

/**
 * The asynchronous stream contract on a local three-master Redis Cluster the suite starts itself, with
 * the blocking store on the same cluster: each stream script runs on the node that owns the key's slot.
 */
@Tag("process")
class RedisClusterAsyncStreamStoreContractTests extends AsyncStreamStoreContractTests {

	@RegisterExtension
	static final RedisClusterExtension cluster = new RedisClusterExtension("redis-cluster-async-stream-contract");

	@Override
	protected AsyncIdempotencyStore createAsyncStore() {
		return new AsyncRedisIdempotencyStore(cluster.connectionFactory(), "modelgate:idempotency:",
				Duration.ofSeconds(10));
	}

	@Override
	protected IdempotencyStore createBlockingStoreOnTheSameRecords() {
		return new RedisIdempotencyStore(cluster.connectionFactory(), "modelgate:idempotency:");
	}

}
