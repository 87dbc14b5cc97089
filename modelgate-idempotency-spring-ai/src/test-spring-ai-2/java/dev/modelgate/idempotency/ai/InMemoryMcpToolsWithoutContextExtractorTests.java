package dev.modelgate.idempotency.ai;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;

/**
 * The MCP tests on a transport built as Spring AI's auto-configuration builds it, without a context extractor:
 * a key sent only as the {@code Idempotency-Key} header is still honoured, read from the servlet request the tool
 * runs on. (The store plays no part in where the key comes from: the memory store.)
 */
class InMemoryMcpToolsWithoutContextExtractorTests extends AbstractMcpToolsTests {

	private final IdempotencyStore store = new InMemoryIdempotencyStore();

	@Override
	protected IdempotencyStore store() {
		return this.store;
	}

	@Override
	protected boolean copiesTheHeaderIntoTheTransportContext() {
		return false;
	}

}
