package dev.modelgate.idempotency.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.types.RedisClientInfo;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.IdempotencyRecord;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.test.IdempotencyStoreContractTests;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.testsupport.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The store contract on a real Redis, plus what is particular to Redis: the record's key and expiry,
 * unreadable records and an unreachable server reported as store failures, and one round trip per
 * transition.
 */
@Tag("store")
class RedisIdempotencyStoreTests extends IdempotencyStoreContractTests {

	// Unique per run, so that builds sharing one Redis never see each other's records.
	private static final String PREFIX = "modelgate:test:" + UUID.randomUUID() + ":";

	private static LettuceConnectionFactory connectionFactory;

	private static StringRedisTemplate redis;

	@BeforeAll
	static void connect() {
		connectionFactory = RedisTestServer.connectionFactory();
		redis = new StringRedisTemplate(connectionFactory);
	}

	@AfterAll
	static void deleteRecordsAndDisconnect() {
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

	@Override
	protected long answerBytesKept(String scope) {
		return redis.opsForHash().lengthOfValue(PREFIX + scope, "outcome");
	}

	@Override
	protected boolean keepsAnything(String scope) {
		return Boolean.TRUE.equals(redis.hasKey(PREFIX + scope)) || Boolean.TRUE.equals(redis.hasKey(marker(scope)));
	}

	private static String marker(String scope) {
		return PREFIX + "spent:{" + PREFIX + scope + "}";
	}

	@Test
	void spentKeyIsASmallHashBesideTheRecordThatOutlivesItsAnswerAndNeedsNoRead() {
		String scope = scopeHash();
		String key = PREFIX + scope;
		String token = token();
		store().begin(scope, "fp", token, Duration.ofSeconds(30));
		store().complete(scope, token, largeOutcome(), Duration.ofMillis(300),
				new SpentMarker(Duration.ofHours(1), "201", "/orders/42"));

		assertThat(redis.<String, String>opsForHash().keys(key)).containsExactlyInAnyOrder("fp", "state", "created",
				"kind", "outcome");
		assertThat(redis.<String, String>opsForHash().keys(marker(scope))).containsExactlyInAnyOrder("fp", "status",
				"completed", "created", "resource");
		assertThat(redis.getExpire(marker(scope), TimeUnit.MILLISECONDS)).isBetween(3_595_000L, 3_600_300L);
		// The record and its answer go after ttl by Redis's own expiry, read or not; the marker stays.
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> !Boolean.TRUE.equals(redis.hasKey(key)));
		assertThat(redis.hasKey(marker(scope))).isTrue();
		assertThat(store().begin(scope, "fp", token(), LONG).outcome()).isEqualTo(Outcome.SPENT);
		assertThat(store().begin(scope, "other", token(), LONG).outcome()).isEqualTo(Outcome.MISMATCH);
		assertThat(redis.hasKey(key)).isFalse();
		assertThat(store().find(scope)).hasValueSatisfying((found) -> assertThat(found.state())
			.isEqualTo(IdempotencyRecord.State.COMPLETED));
		assertThat(store().delete(scope)).isTrue();
		assertThat(keepsAnything(scope)).isFalse();
	}

	@Test
	void theMarkerSharesTheRecordsClusterSlot() {
		String scope = scopeHash();
		assertThat(SlotHash.getSlot(marker(scope)))
			.isEqualTo(SlotHash.getSlot(PREFIX + scope));
		String tagged = "idem:{tenant}:";
		assertThat(SlotHash.getSlot(tagged + "spent:{" + tagged + scope + "}"))
			.isEqualTo(SlotHash.getSlot(tagged + scope));
	}

	@Test
	void recordIsOneHashAtPrefixPlusScopeThatExpiresWithTheLease() {
		String prefix = PREFIX + "layout:";
		IdempotencyStore store = new RedisIdempotencyStore(connectionFactory, prefix);
		String scope = scopeHash();
		String key = prefix + scope;
		store.begin(scope, "fp", token(), Duration.ofSeconds(30));

		assertThat(redis.keys(prefix + "*")).containsExactly(key);
		assertThat(redis.<String, String>opsForHash().keys(key)).containsExactlyInAnyOrder("fp", "state", "token",
				"created");
		assertThat(redis.getExpire(key, TimeUnit.MILLISECONDS)).isBetween(25_000L, 30_000L);
	}

	@Test
	void completedRecordDropsTokenAndExpiresWithTheTtl() {
		String scope = scopeHash();
		String key = PREFIX + scope;
		String token = token();
		store().begin(scope, "fp", token, Duration.ofSeconds(30));
		store().complete(scope, token, binaryOutcome(), Duration.ofHours(1));

		assertThat(redis.<String, String>opsForHash().keys(key)).containsExactlyInAnyOrder("fp", "state", "created",
				"kind", "outcome");
		assertThat(redis.getExpire(key, TimeUnit.MILLISECONDS)).isBetween(3_595_000L, 3_600_000L);
	}

	@Test
	void renewResetsExpiryToTheNewLease() {
		String scope = scopeHash();
		String token = token();
		store().begin(scope, "fp", token, Duration.ofSeconds(30));
		store().renew(scope, token, Duration.ofMinutes(10));

		assertThat(redis.getExpire(PREFIX + scope, TimeUnit.MILLISECONDS)).isBetween(595_000L, 600_000L);
	}

	@Test
	void wrongTypeRecordIsReportedAsStoreFailure() {
		String scope = scopeHash();
		redis.opsForValue().set(PREFIX + scope, "not a record", Duration.ofMinutes(1));

		assertEveryTransitionFails(store(), scope);
		assertThatExceptionOfType(IdempotencyStoreException.class).isThrownBy(() -> store().find(scope))
			.withCauseInstanceOf(DataAccessException.class);
		assertThat(redis.opsForValue().get(PREFIX + scope)).isEqualTo("not a record");
	}

	@Test
	void recordWrittenBeforeCreationTimesWereKeptIsFoundWithUnknownAge() {
		String scope = scopeHash();
		redis.opsForHash()
			.putAll(PREFIX + scope, Map.of("fp", "fp", "state", "completed", "kind", "response", "outcome", "ok"));
		redis.expire(PREFIX + scope, Duration.ofMinutes(1));

		IdempotencyRecord record = store().find(scope).orElseThrow();
		assertThat(record.createdAt()).isNull();
		assertThat(record.age()).isNull();
		assertThat(record.outcomeKind()).isEqualTo(StoredOutcome.Kind.RESPONSE);
		assertThat(record.outcomeSize()).isEqualTo(2);
		assertThat(record.expiresIn()).isBetween(Duration.ofSeconds(55), Duration.ofMinutes(1));
	}

	@Test
	void hashWithoutFingerprintIsReportedAsStoreFailureOnBegin() {
		String scope = scopeHash();
		redis.opsForHash().put(PREFIX + scope, "state", "in_progress");

		assertThatExceptionOfType(IdempotencyStoreException.class)
			.isThrownBy(() -> store().begin(scope, "fp", token(), LONG))
			.withCauseInstanceOf(DataAccessException.class);
	}

	@Test
	void unreachableServerIsReportedAsStoreFailure() {
		LettuceClientConfiguration quick = LettuceClientConfiguration.builder()
			.commandTimeout(Duration.ofMillis(500))
			.clientOptions(ClientOptions.builder()
				.socketOptions(SocketOptions.builder().connectTimeout(Duration.ofMillis(500)).build())
				.build())
			.shutdownTimeout(Duration.ZERO)
			.build();
		LettuceConnectionFactory closedPort = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", 1), quick);
		closedPort.afterPropertiesSet();
		closedPort.start();
		try {
			assertEveryTransitionFails(new RedisIdempotencyStore(closedPort, PREFIX), scopeHash());
		}
		finally {
			closedPort.destroy();
		}
	}

	@Test
	void eachTransitionIsOneEvalshaRoundTrip() throws IOException {
		String clientName = "modelgate-test-" + UUID.randomUUID();
		LettuceConnectionFactory named = RedisTestServer
			.connectionFactory(LettuceClientConfiguration.builder().clientName(clientName).build());
		try {
			IdempotencyStore store = new RedisIdempotencyStore(named, PREFIX);
			// Connects, and has Redis cache all four scripts, so that only steady-state calls are counted.
			String warmUp = token();
			String warmUpScope = scopeHash();
			store.begin(warmUpScope, "fp", warmUp, LONG);
			store.renew(warmUpScope, warmUp, LONG);
			store.release(warmUpScope, warmUp);
			store.begin(warmUpScope, "fp", warmUp, LONG);
			store.complete(warmUpScope, warmUp, null, LONG);
			String client = clientAddress(clientName);

			String scope = scopeHash();
			String token = token();
			assertThat(commandsSentBy(client, () -> store.begin(scope, "fp", token, LONG))).containsExactly("evalsha");
			assertThat(commandsSentBy(client, () -> store.renew(scope, token, LONG))).containsExactly("evalsha");
			assertThat(commandsSentBy(client, () -> store.complete(scope, token, binaryOutcome(), LONG)))
				.containsExactly("evalsha");
			assertThat(commandsSentBy(client, () -> store.begin(scope, "fp", token(), LONG)))
				.containsExactly("evalsha");
			String released = scopeHash();
			store.begin(released, "fp", token, LONG);
			assertThat(commandsSentBy(client, () -> store.release(released, token))).containsExactly("evalsha");
			store.find(scope);
			assertThat(commandsSentBy(client, () -> store.find(scope))).containsExactly("evalsha");
		}
		finally {
			named.destroy();
		}
	}

	@Test
	void anotherInstanceReplaysTheCompletedRecord() {
		String scope = scopeHash();
		String token = token();
		store().begin(scope, "fp", token, LONG);
		store().complete(scope, token, binaryOutcome(), LONG);
		LettuceConnectionFactory other = RedisTestServer.connectionFactory();
		try {
			IdempotencyStore reconnected = new RedisIdempotencyStore(other, PREFIX);
			BeginResult replay = reconnected.begin(scope, "fp", token(), LONG);
			assertThat(replay.outcome()).isEqualTo(Outcome.COMPLETED);
			assertThat(replay.stored()).isEqualTo(binaryOutcome());
		}
		finally {
			other.destroy();
		}
	}

	private static void assertEveryTransitionFails(IdempotencyStore store, String scope) {
		String token = token();
		StoredOutcome response = new StoredOutcome(StoredOutcome.Kind.RESPONSE, new byte[0]);
		assertThatExceptionOfType(IdempotencyStoreException.class)
			.isThrownBy(() -> store.begin(scope, "fp", token, LONG))
			.withCauseInstanceOf(DataAccessException.class);
		assertThatExceptionOfType(IdempotencyStoreException.class).isThrownBy(() -> store.renew(scope, token, LONG))
			.withCauseInstanceOf(DataAccessException.class);
		assertThatExceptionOfType(IdempotencyStoreException.class)
			.isThrownBy(() -> store.complete(scope, token, response, LONG))
			.withCauseInstanceOf(DataAccessException.class);
		assertThatExceptionOfType(IdempotencyStoreException.class).isThrownBy(() -> store.release(scope, token))
			.withCauseInstanceOf(DataAccessException.class);
	}

	private static String clientAddress(String clientName) {
		try (RedisConnection connection = connectionFactory.getConnection()) {
			return connection.serverCommands()
				.getClientList()
				.stream()
				.filter((client) -> clientName.equals(client.getName()))
				.map(RedisClientInfo::getAddressPort)
				.findFirst()
				.orElseThrow();
		}
	}

	/**
	 * The commands that the client at {@code address} sent while {@code action} ran, as MONITOR saw
	 * them. MONITOR, unlike {@code INFO commandstats}, tells a command sent by a client from one a
	 * script ran inside Redis, and is not disturbed by other clients of a shared server.
	 */
	private static List<String> commandsSentBy(String address, Runnable action) throws IOException {
		String marker = "modelgate-marker-" + UUID.randomUUID();
		try (Socket monitor = new Socket(RedisTestServer.host(), RedisTestServer.port())) {
			monitor.setSoTimeout(5000);
			BufferedReader feed = new BufferedReader(
					new InputStreamReader(monitor.getInputStream(), StandardCharsets.ISO_8859_1));
			monitor.getOutputStream().write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
			assertThat(feed.readLine()).isEqualTo("+OK");
			action.run();
			// Redis runs commands one at a time, so everything the action sent is logged before the marker.
			try (RedisConnection connection = connectionFactory.getConnection()) {
				connection.commands().echo(marker.getBytes(StandardCharsets.US_ASCII));
			}
			List<String> commands = new ArrayList<>();
			for (String line = feed.readLine(); !line.contains(marker); line = feed.readLine()) {
				// +1700000000.123456 [0 127.0.0.1:50312] "evalsha" "..." ...
				if (line.contains(" " + address + "] ")) {
					int start = line.indexOf("] \"") + 3;
					commands.add(line.substring(start, line.indexOf('"', start)).toLowerCase(Locale.ROOT));
				}
			}
			return commands;
		}
	}

}
