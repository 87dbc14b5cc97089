package dev.modelgate.reliability;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.redis.AsyncRedisIdempotencyStore;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;
import dev.modelgate.idempotency.test.AsyncIdempotencyStoreContractTests;
import dev.modelgate.reliability.support.RedisClusterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 4 for the reactive store: the asynchronous store contract on a local three-master Redis
 * Cluster the suite starts itself, with the blocking store on the same cluster as the other half of a
 * mixed fleet. Each script runs on the node that owns its key's slot, through the reactive cluster
 * connection.
 */
@Tag("process")
class RedisClusterAsyncStoreContractTests extends AsyncIdempotencyStoreContractTests {

	@RegisterExtension
	static final RedisClusterExtension cluster = new RedisClusterExtension("redis-cluster-async-contract");

	// Unique per run: the records of the blocking contract's class may be on the same nodes.
	private static final String PREFIX = "modelgate:idempotency:" + UUID.randomUUID() + ":";

	private static LettuceConnectionFactory unreachable;

	@BeforeAll
	static void unreachableCluster() {
		unreachable = new LettuceConnectionFactory(new RedisClusterConfiguration(List.of("127.0.0.1:1")),
				LettuceClientConfiguration.builder()
					.commandTimeout(Duration.ofMillis(500))
					.clientOptions(ClientOptions.builder()
						.socketOptions(SocketOptions.builder().connectTimeout(Duration.ofMillis(500)).build())
						.build())
					.shutdownTimeout(Duration.ZERO)
					.build());
		unreachable.afterPropertiesSet();
		unreachable.start();
	}

	@AfterAll
	static void stopUnreachable() {
		unreachable.destroy();
	}

	@Override
	protected AsyncIdempotencyStore createAsyncStore() {
		return new AsyncRedisIdempotencyStore(cluster.connectionFactory(), PREFIX, Duration.ofSeconds(10));
	}

	@Override
	protected IdempotencyStore createBlockingStoreOnTheSameRecords() {
		return new RedisIdempotencyStore(cluster.connectionFactory(), PREFIX);
	}

	@Override
	protected AsyncIdempotencyStore createUnreachableStore() {
		return new AsyncRedisIdempotencyStore(unreachable, PREFIX, Duration.ofSeconds(5));
	}

	@Test
	void recordsOfManyScopesSpreadOverEveryMaster() {
		AsyncIdempotencyStore store = createAsyncStore();
		List<Long> before = cluster.keysPerNode();
		for (int i = 0; i < 300; i++) {
			store.begin(scopeHash(), "fp", token(), LONG).join();
		}
		List<Long> after = cluster.keysPerNode();
		assertThat(after).hasSize(3);
		for (int node = 0; node < 3; node++) {
			assertThat(after.get(node) - before.get(node)).isGreaterThan(50);
		}
	}

}
