package dev.modelgate.idempotency.ai;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;
import dev.modelgate.idempotency.testsupport.RedisTestServer;

/** The MCP server's tools on real Redis ({@code REDIS_HOST}, {@code REDIS_PORT}). */
@Tag("store")
class RedisMcpToolsTests extends AbstractMcpToolsTests {

	private static final LettuceConnectionFactory CONNECTIONS = RedisTestServer.connectionFactory();

	private final IdempotencyStore store = new RedisIdempotencyStore(CONNECTIONS, "modelgate:test:mcp:");

	@Override
	protected IdempotencyStore store() {
		return this.store;
	}

	@AfterAll
	static void closeConnections() {
		CONNECTIONS.destroy();
	}

}
