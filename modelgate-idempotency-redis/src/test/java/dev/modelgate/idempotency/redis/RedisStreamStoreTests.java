package dev.modelgate.idempotency.redis;

import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.test.StreamStoreContractTests;
import dev.modelgate.idempotency.testsupport.RedisTestServer;

/** The stream contract on a real Redis. */
@Tag("store")
class RedisStreamStoreTests extends StreamStoreContractTests {

	// Unique per run, so that builds sharing one Redis never see each other's records.
	private static final String PREFIX = "modelgate:test:" + UUID.randomUUID() + ":";

	private static LettuceConnectionFactory connectionFactory;

	@BeforeAll
	static void connect() {
		connectionFactory = RedisTestServer.connectionFactory();
	}

	@AfterAll
	static void deleteRecordsAndDisconnect() {
		StringRedisTemplate redis = new StringRedisTemplate(connectionFactory);
		Set<String> keys = redis.keys(PREFIX + "*");
		if (!keys.isEmpty()) {
			redis.delete(keys);
		}
		connectionFactory.destroy();
	}

	@Override
	protected IdempotencyStore createStore() {
		return new RedisIdempotencyStore(connectionFactory, PREFIX);
	}

}
