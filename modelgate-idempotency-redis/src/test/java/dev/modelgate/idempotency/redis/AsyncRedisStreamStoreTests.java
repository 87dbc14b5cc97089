package dev.modelgate.idempotency.redis;

import java.time.Duration;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.test.AsyncStreamStoreContractTests;
import dev.modelgate.idempotency.testsupport.RedisTestServer;

/** The asynchronous stream contract on a real Redis, with the blocking store on the same key space. */
@Tag("store")
class AsyncRedisStreamStoreTests extends AsyncStreamStoreContractTests {

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
	protected AsyncIdempotencyStore createAsyncStore() {
		return new AsyncRedisIdempotencyStore(connectionFactory, PREFIX, Duration.ofSeconds(10));
	}

	@Override
	protected IdempotencyStore createBlockingStoreOnTheSameRecords() {
		return new RedisIdempotencyStore(connectionFactory, PREFIX);
	}

}
