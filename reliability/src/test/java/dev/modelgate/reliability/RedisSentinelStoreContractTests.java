package dev.modelgate.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;
import dev.modelgate.idempotency.redis.ReplicaAcknowledgement;
import dev.modelgate.idempotency.test.IdempotencyStoreContractTests;
import dev.modelgate.reliability.support.RedisSentinelGroup;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 7, first half: the store contract behind Sentinel, on a Sentinel-aware connection factory
 * (the one Spring Boot builds from {@code spring.data.redis.sentinel.*}), with replica
 * acknowledgements on: the store's own connections find the primary through the Sentinels too.
 */
@Tag("process")
class RedisSentinelStoreContractTests extends IdempotencyStoreContractTests {

	private static final String PREFIX = "modelgate:idempotency:";

	private static RedisSentinelGroup group;

	private static LettuceConnectionFactory connectionFactory;

	private final List<RedisIdempotencyStore> stores = new ArrayList<>();

	@BeforeAll
	static void startSentinelGroup() {
		group = RedisSentinelGroup.start("redis-sentinel-contract");
		connectionFactory = group.connectionFactory();
	}

	@AfterAll
	static void stopSentinelGroup() {
		if (connectionFactory != null) {
			connectionFactory.destroy();
		}
		if (group != null) {
			group.close();
		}
	}

	@AfterEach
	void closeStores() {
		this.stores.forEach(RedisIdempotencyStore::close);
	}

	@Override
	protected IdempotencyStore createStore() {
		RedisIdempotencyStore store = new RedisIdempotencyStore(connectionFactory, PREFIX, Duration.ofSeconds(5),
				new ReplicaAcknowledgement(1, Duration.ofSeconds(1)));
		this.stores.add(store);
		return store;
	}

	@Test
	void acknowledgedRecordIsOnThePrimaryAndTheReplicaWhenBeginReturns() {
		String scope = scopeHash();
		store().begin(scope, "fp", token(), LONG);

		for (int port : List.of(group.primary().port(), group.replica().port())) {
			LettuceConnectionFactory direct = new LettuceConnectionFactory("127.0.0.1", port);
			direct.afterPropertiesSet();
			direct.start();
			try {
				assertThat(new StringRedisTemplate(direct).hasKey(PREFIX + scope)).as("on port %d", port).isTrue();
			}
			finally {
				direct.destroy();
			}
		}
	}

}
