package dev.modelgate.idempotency.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.test.IdempotencyStoreContractTests;

/** The store contract with replica acknowledgements on, on a primary and a replica of the test's own. */
@Tag("store")
class ReplicaAcknowledgedRedisStoreContractTests extends IdempotencyStoreContractTests {

	private static final String PREFIX = "modelgate:test:acks-contract:" + UUID.randomUUID() + ":";

	private static ReplicatedRedis redis;

	private static LettuceConnectionFactory primary;

	private final List<RedisIdempotencyStore> stores = new ArrayList<>();

	@BeforeAll
	static void startPrimaryAndReplica() {
		redis = ReplicatedRedis.start();
		primary = redis.primaryConnectionFactory();
	}

	@AfterAll
	static void stopPrimaryAndReplica() {
		redis.close();
	}

	@AfterEach
	void closeStores() {
		this.stores.forEach(RedisIdempotencyStore::close);
	}

	@Override
	protected IdempotencyStore createStore() {
		RedisIdempotencyStore store = new RedisIdempotencyStore(primary, PREFIX, Duration.ofSeconds(5),
				new ReplicaAcknowledgement(1, Duration.ofSeconds(1)));
		this.stores.add(store);
		return store;
	}

}
