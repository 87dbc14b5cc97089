package dev.modelgate.idempotency.test;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;

/** The stream contract on the memory store; its second instance is the same store (one process). */
class InMemoryStreamStoreTests extends StreamStoreContractTests {

	private InMemoryIdempotencyStore store;

	@Override
	protected IdempotencyStore createStore() {
		if (this.store == null) {
			this.store = new InMemoryIdempotencyStore();
		}
		return this.store;
	}

}
