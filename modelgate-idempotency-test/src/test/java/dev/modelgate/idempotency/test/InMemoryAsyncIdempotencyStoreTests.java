package dev.modelgate.idempotency.test;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * The asynchronous contract on the memory store run on a pool; the blocking store on the same records
 * is the memory store itself, and the unreachable one a store whose every call fails.
 */
class InMemoryAsyncIdempotencyStoreTests extends AsyncIdempotencyStoreContractTests {

	private static final ExecutorService pool = Executors.newFixedThreadPool(8);

	private InMemoryIdempotencyStore store;

	@AfterAll
	static void stopPool() {
		pool.shutdown();
	}

	@Override
	protected AsyncIdempotencyStore createAsyncStore() {
		this.store = new InMemoryIdempotencyStore();
		return new PooledAsyncStore(this.store, pool);
	}

	@Override
	protected IdempotencyStore createBlockingStoreOnTheSameRecords() {
		return this.store;
	}

	@Override
	protected AsyncIdempotencyStore createUnreachableStore() {
		IdempotencyStore down = new IdempotencyStore() {

			@Override
			public BeginResult begin(String scope, String fingerprint, String token,
					Duration leaseTtl) {
				throw new IdempotencyStoreException("down");
			}

			@Override
			public boolean renew(String scope, String token, Duration leaseTtl) {
				throw new IdempotencyStoreException("down");
			}

			@Override
			public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
				throw new IdempotencyStoreException("down");
			}

			@Override
			public boolean release(String scope, String token) {
				throw new IdempotencyStoreException("down");
			}

		};
		return new PooledAsyncStore(down, pool);
	}

}
