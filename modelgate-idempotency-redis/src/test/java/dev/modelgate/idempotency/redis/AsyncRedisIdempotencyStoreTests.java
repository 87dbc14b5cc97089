package dev.modelgate.idempotency.redis;

import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.test.AsyncIdempotencyStoreContractTests;
import dev.modelgate.idempotency.testsupport.RedisProcess;
import dev.modelgate.idempotency.testsupport.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The asynchronous store contract on a real Redis, with the blocking {@link RedisIdempotencyStore} on
 * the same key space as the other half of a mixed fleet; then what is particular to the reactive
 * store: the record's layout is the blocking store's, an unreadable record and a server that stopped
 * answering fail the future, and the scripts are loaded again after the server forgot them.
 */
@Tag("store")
class AsyncRedisIdempotencyStoreTests extends AsyncIdempotencyStoreContractTests {

	// Unique per run, so that builds sharing one Redis never see each other's records.
	private static final String PREFIX = "modelgate:test:" + UUID.randomUUID() + ":";

	// Long enough for a first call that connects, and warms the JVM up, on a loaded build machine.
	private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(10);

	private static LettuceConnectionFactory connectionFactory;

	private static LettuceConnectionFactory closedPort;

	private static StringRedisTemplate redis;

	@BeforeAll
	static void connect() {
		connectionFactory = RedisTestServer.connectionFactory();
		redis = new StringRedisTemplate(connectionFactory);
		closedPort = quickFactory(1);
	}

	@AfterAll
	static void deleteRecordsAndDisconnect() {
		Set<String> keys = redis.keys(PREFIX + "*");
		if (!keys.isEmpty()) {
			redis.delete(keys);
		}
		connectionFactory.destroy();
		closedPort.destroy();
	}

	@Override
	protected AsyncIdempotencyStore createAsyncStore() {
		return new AsyncRedisIdempotencyStore(connectionFactory, PREFIX, OPERATION_TIMEOUT);
	}

	@Override
	protected IdempotencyStore createBlockingStoreOnTheSameRecords() {
		return new RedisIdempotencyStore(connectionFactory, PREFIX);
	}

	@Override
	protected AsyncIdempotencyStore createUnreachableStore() {
		return new AsyncRedisIdempotencyStore(closedPort, PREFIX, OPERATION_TIMEOUT);
	}

	@Test
	void recordHasTheBlockingStoresLayoutAndExpiry() {
		String scope = scopeHash();
		String key = PREFIX + scope;
		String token = token();
		asyncStore().begin(scope, "fp", token, Duration.ofSeconds(30)).join();
		assertThat(redis.<String, String>opsForHash().keys(key)).containsExactlyInAnyOrder("fp", "state", "token",
				"created");
		assertThat(redis.getExpire(key, TimeUnit.MILLISECONDS)).isBetween(25_000L, 30_000L);
		asyncStore().complete(scope, token, binaryOutcome(), Duration.ofHours(1)).join();
		assertThat(redis.<String, String>opsForHash().keys(key)).containsExactlyInAnyOrder("fp", "state", "created",
				"kind", "outcome");
		assertThat(redis.getExpire(key, TimeUnit.MILLISECONDS)).isBetween(3_595_000L, 3_600_000L);
	}

	@Test
	void unreadableRecordFailsTheFutureAndIsLeftAsItIs() {
		String scope = scopeHash();
		redis.opsForValue().set(PREFIX + scope, "not a record", Duration.ofMinutes(1));
		CompletableFuture<BeginResult> begin = asyncStore().begin(scope, "fp", token(), LONG);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> begin.get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(IdempotencyStoreException.class);
		String hashWithoutFingerprint = scopeHash();
		redis.opsForHash().put(PREFIX + hashWithoutFingerprint, "state", "in_progress");
		CompletableFuture<BeginResult> other = asyncStore().begin(hashWithoutFingerprint, "fp", token(), LONG);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> other.get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(IdempotencyStoreException.class);
		assertThat(redis.opsForValue().get(PREFIX + scope)).isEqualTo("not a record");
	}

	/**
	 * A server that stops answering (SIGSTOP, its connections stay open): the call returns a future that
	 * is not complete, since it did not wait for the server, and that fails with a store failure once the
	 * operation timeout has passed, although the client's own command timeout is far longer. Once the
	 * server runs again, so does the store.
	 */
	@Test
	void callToAServerThatStoppedAnsweringReturnsAtOnceAndFailsAfterTheOperationTimeout() {
		try (RedisProcess server = RedisProcess.start()) {
			LettuceConnectionFactory factory = server.connectionFactory(
					LettuceClientConfiguration.builder().commandTimeout(Duration.ofMinutes(1)).build());
			try {
				AsyncIdempotencyStore store = new AsyncRedisIdempotencyStore(factory, PREFIX, Duration.ofMillis(500));
				assertThat(store.begin(scopeHash(), "fp", token(), LONG).join().outcome()).isEqualTo(Outcome.ACQUIRED);
				server.freeze();
				CompletableFuture<BeginResult> begin = store.begin(scopeHash(), "fp", token(), LONG);
				try {
					assertThat(begin).isNotDone();
					assertThatExceptionOfType(ExecutionException.class)
						.isThrownBy(() -> begin.get(20, TimeUnit.SECONDS))
						.withCauseInstanceOf(IdempotencyStoreException.class)
						.withMessageContaining("had no answer within 500ms");
				}
				finally {
					server.resume();
				}
				assertThat(store.begin(scopeHash(), "fp", token(), LONG).join().outcome()).isEqualTo(Outcome.ACQUIRED);
			}
			finally {
				factory.destroy();
			}
		}
	}

	@Test
	void scriptsAreLoadedAgainAfterTheServerForgotThem() {
		try (RedisProcess server = RedisProcess.start()) {
			LettuceConnectionFactory factory = server.connectionFactory();
			try {
				AsyncIdempotencyStore store = new AsyncRedisIdempotencyStore(factory, PREFIX, OPERATION_TIMEOUT);
				String scope = scopeHash();
				String token = token();
				assertThat(store.begin(scope, "fp", token, LONG).join().outcome()).isEqualTo(Outcome.ACQUIRED);
				server.cli("SCRIPT", "FLUSH");
				assertThat(store.complete(scope, token, binaryOutcome(), LONG).join()).isTrue();
				assertThat(store.begin(scope, "fp", token(), LONG).join().stored()).isEqualTo(binaryOutcome());
			}
			finally {
				factory.destroy();
			}
		}
	}

	@Test
	void eachTransitionIsOneEvalshaRoundTrip() {
		try (RedisProcess server = RedisProcess.start()) {
			LettuceConnectionFactory factory = server.connectionFactory();
			try {
				AsyncIdempotencyStore store = new AsyncRedisIdempotencyStore(factory, PREFIX, OPERATION_TIMEOUT);
				// Connects and has the server cache the scripts, so that only steady-state calls are counted.
				String warmUp = scopeHash();
				String token = token();
				store.begin(warmUp, "fp", token, LONG).join();
				store.renew(warmUp, token, LONG).join();
				store.release(warmUp, token).join();
				store.begin(warmUp, "fp", token, LONG).join();
				store.complete(warmUp, token, null, LONG).join();
				server.cli("CONFIG", "RESETSTAT");

				String scope = scopeHash();
				store.begin(scope, "fp", token, LONG).join();
				store.renew(scope, token, LONG).join();
				store.complete(scope, token, binaryOutcome(), LONG).join();
				store.begin(scope, "fp", token(), LONG).join();
				String released = scopeHash();
				store.begin(released, "fp", token, LONG).join();
				store.release(released, token).join();
				// The server counts the commands that the scripts run too: leave those, and redis-cli's, out.
				Set<String> notSentByTheStore = Set.of("config", "info", "exists", "hmget", "hset", "hdel", "del",
						"time", "pexpire");
				assertThat(server.cli("INFO", "commandstats")
					.lines()
					.filter((line) -> line.startsWith("cmdstat_"))
					.map((line) -> line.substring("cmdstat_".length(), line.indexOf(',')))
					.filter((stat) -> !notSentByTheStore.contains(stat.split("[:|]")[0])))
					.containsExactly("evalsha:calls=6");
			}
			finally {
				factory.destroy();
			}
		}
	}

	private static LettuceConnectionFactory quickFactory(int port) {
		LettuceClientConfiguration quick = LettuceClientConfiguration.builder()
			.commandTimeout(Duration.ofMillis(500))
			.clientOptions(ClientOptions.builder()
				.socketOptions(SocketOptions.builder().connectTimeout(Duration.ofMillis(500)).build())
				.build())
			.shutdownTimeout(Duration.ZERO)
			.build();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port),
				quick);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

}
