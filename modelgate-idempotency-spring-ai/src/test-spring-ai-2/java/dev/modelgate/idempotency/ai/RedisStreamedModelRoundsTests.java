package dev.modelgate.idempotency.ai;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;
import dev.modelgate.idempotency.testsupport.RedisTestServer;

/** Streamed model rounds on real Redis ({@code REDIS_HOST}, {@code REDIS_PORT}). */
@Tag("store")
class RedisStreamedModelRoundsTests extends AbstractStreamedModelRoundsTests {

	private static final LettuceConnectionFactory CONNECTIONS = RedisTestServer.connectionFactory();

	private final IdempotencyStore store = new RedisIdempotencyStore(CONNECTIONS, "modelgate:test:ai-stream:");

	@Override
	protected IdempotencyStore store() {
		return this.store;
	}

	@AfterAll
	static void closeConnections() {
		CONNECTIONS.destroy();
	}

}
