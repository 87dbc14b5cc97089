package dev.modelgate.idempotency.test;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.AfterAll;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;

/** The asynchronous stream contract on the memory store run on a pool; every instance is the same store. */
class InMemoryAsyncStreamStoreTests extends AsyncStreamStoreContractTests {

	private static final ExecutorService pool = Executors.newFixedThreadPool(8);

	private InMemoryIdempotencyStore store;

	@AfterAll
	static void stopPool() {
		pool.shutdown();
	}

	@Override
	protected AsyncIdempotencyStore createAsyncStore() {
		return new PooledAsyncStore(blockingStore(), pool);
	}

	@Override
	protected IdempotencyStore createBlockingStoreOnTheSameRecords() {
		return blockingStore();
	}

	private InMemoryIdempotencyStore blockingStore() {
		if (this.store == null) {
			this.store = new InMemoryIdempotencyStore();
		}
		return this.store;
	}

}
