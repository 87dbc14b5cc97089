package dev.modelgate.idempotency.test;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;

class InMemoryIdempotencyStoreTests extends IdempotencyStoreContractTests {

	@Override
	protected IdempotencyStore createStore() {
		return new InMemoryIdempotencyStore();
	}

}
