package dev.modelgate.idempotency.core;

class InMemoryIdempotencyStoreTests extends IdempotencyStoreContractTests {

	@Override
	protected IdempotencyStore createStore() {
		return new InMemoryIdempotencyStore();
	}

}
