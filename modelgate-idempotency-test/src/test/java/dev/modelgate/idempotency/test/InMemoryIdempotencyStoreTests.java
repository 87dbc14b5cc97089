package dev.modelgate.idempotency.test;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;

class InMemoryIdempotencyStoreTests extends IdempotencyStoreContractTests {

	@Override
	protected IdempotencyStore createStore() {
		return new InMemoryIdempotencyStore();
	}

	/** Each test has a store of its own, so the store's bytes are the scope's. */
	@Override
	protected long answerBytesKept(String scope) {
		return ((InMemoryIdempotencyStore) store()).storedBytes();
	}

}
