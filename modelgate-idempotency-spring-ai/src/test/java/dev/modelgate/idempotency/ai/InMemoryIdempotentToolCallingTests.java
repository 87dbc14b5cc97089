package dev.modelgate.idempotency.ai;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;

/** The agent on the memory store: no server but the in-test model. */
class InMemoryIdempotentToolCallingTests extends AbstractIdempotentToolCallingTests {

	private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore();

	@Override
	protected IdempotencyStore store() {
		return this.store;
	}

}
