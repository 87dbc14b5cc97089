package dev.modelgate.idempotency.redis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.test.IdempotencyStoreContractTests;
import dev.modelgate.idempotency.testsupport.RedisProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The store contract as a Redis user that has only the permissions the README gives it, on a
 * server of the test's own; and that each of those permissions is needed, and a key outside the
 * prefix is refused, as a store failure (so a 503, never a wrong answer).
 */
@Tag("store")
class RedisAclIdempotencyStoreTests extends IdempotencyStoreContractTests {

	/** The README's rules for the store's user, on the default key prefix (checked to be what the README says). */
	static final List<String> STORE_RULES = List.of("resetkeys", "~modelgate:idempotency:*", "resetchannels",
			"-@all", "+evalsha", "+eval", "+exists", "+time", "+hset", "+hmget", "+hdel", "+hstrlen", "+pexpire",
			"+pttl", "+del");

	/** The README's optional rules: the eviction-policy check, and replica acknowledgements. */
	static final List<String> OPTIONAL_RULES = List.of("+config|get", "+info", "+wait");

	static final String KEY_PREFIX = "modelgate:idempotency:";

	static final String STORE_USER = "modelgate";

	static final String PASSWORD = "store-secret";

	private static RedisProcess redis;

	private static LettuceConnectionFactory connectionFactory;

	@BeforeAll
	static void startRedisWithTheStoreUser() {
		redis = RedisProcess.start();
		createUser(redis, STORE_USER, STORE_RULES);
		connectionFactory = connectAs(STORE_USER);
	}

	@AfterAll
	static void stopRedis() {
		connectionFactory.destroy();
		redis.close();
	}

	@AfterEach
	void noCommandWasRefused() {
		// Redis 7.2 and later refuse Lettuce's CLIENT SETINFO at connection, which Lettuce ignores.
		assertThat(refusals(redis)).as("refusals in ACL LOG")
			.noneMatch((refusal) -> !"client|setinfo".equals(refusal.get("object")));
	}

	@Override
	protected IdempotencyStore createStore() {
		return new RedisIdempotencyStore(connectionFactory, KEY_PREFIX);
	}

	@Test
	void keyOutsideThePrefixIsRefusedAsAStoreFailure() {
		IdempotencyStore outside = new RedisIdempotencyStore(connectionFactory, "other:");
		String scope = scopeHash();

		assertRefused(() -> outside.begin(scope, "fp", token(), LONG));
		assertThat(lastRefusal()).containsEntry("reason", "key").containsEntry("object", "other:" + scope);
		assertRefused(() -> outside.delete(scope));
		redis.cli("ACL", "LOG", "RESET");
	}

	static Stream<String> commandRules() {
		return STORE_RULES.stream().filter((rule) -> rule.startsWith("+"));
	}

	@ParameterizedTest(name = "without {0}")
	@MethodSource("commandRules")
	void userWithoutOneOfTheCommandsGetsAStoreFailure(String rule) {
		List<String> rules = new ArrayList<>(STORE_RULES);
		rules.remove(rule);
		String user = "without-" + rule.substring(1);
		createUser(redis, user, rules);
		// As after a restart or a fail-over: the server knows no script, so the first EVALSHA falls back on EVAL.
		assertThat(redis.cli("SCRIPT", "FLUSH")).isEqualTo("OK");
		LettuceConnectionFactory restricted = connectAs(user);
		try {
			assertRefused(() -> runEveryOperation(new RedisIdempotencyStore(restricted, KEY_PREFIX)));
			assertThat(lastRefusal()).containsEntry("username", user).containsEntry("object", rule.substring(1));
		}
		finally {
			restricted.destroy();
			redis.cli("ACL", "DELUSER", user);
			redis.cli("ACL", "LOG", "RESET");
		}
	}

	@Test
	void scriptsTheServerForgotAreLoadedAgainAsTheStoreUser() {
		assertThat(redis.cli("SCRIPT", "FLUSH")).isEqualTo("OK");
		runEveryOperation(store());
	}

	@Test
	void optionalRulesAllowTheEvictionPolicyCheckAndReplicaAcknowledgements() throws Exception {
		List<String> rules = new ArrayList<>(STORE_RULES);
		rules.addAll(OPTIONAL_RULES);
		createUser(redis, "modelgate-full", rules);
		LettuceConnectionFactory full = connectAs("modelgate-full");
		try (RedisConnection connection = full.getConnection()) {
			assertThat(connection.serverCommands().getConfig("maxmemory-policy")).containsKey("maxmemory-policy");
			assertThat(connection.serverCommands().info("memory")).containsKey("maxmemory_policy");
			assertThat(waitForReplicas(connection)).isZero();
			runEveryOperation(new RedisIdempotencyStore(full, KEY_PREFIX));
		}
		finally {
			full.destroy();
			redis.cli("ACL", "DELUSER", "modelgate-full");
		}
	}

	@Test
	void storeUserIsRefusedWhatOnlyTheOptionalRulesAllow() {
		try (RedisConnection connection = connectionFactory.getConnection()) {
			assertThatExceptionOfType(DataAccessException.class)
				.isThrownBy(() -> connection.serverCommands().getConfig("maxmemory-policy"))
				.withStackTraceContaining("NOPERM");
			assertThatExceptionOfType(DataAccessException.class)
				.isThrownBy(() -> connection.serverCommands().info("memory"))
				.withStackTraceContaining("NOPERM");
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> waitForReplicas(connection))
				.withMessageContaining("NOPERM");
		}
		finally {
			redis.cli("ACL", "LOG", "RESET");
		}
	}

	@Test
	void theStoresGuideGivesExactlyTheTestedRules() throws IOException {
		String readme = Files.readString(Path.of("..", "docs", "STORES.md"));
		assertThat(readme).contains("ACL SETUSER " + STORE_USER + " on >PASSWORD " + String.join(" ", STORE_RULES))
			.contains(String.join(" ", OPTIONAL_RULES.subList(0, 2)))
			.contains(OPTIONAL_RULES.get(2));
	}

	/** Creates (or replaces) {@code user} with {@link #PASSWORD} and exactly {@code rules}. */
	static void createUser(RedisProcess redis, String user, List<String> rules) {
		List<String> command = new ArrayList<>(List.of("ACL", "SETUSER", user, "reset", "on", ">" + PASSWORD));
		command.addAll(rules);
		assertThat(redis.cli(command.toArray(String[]::new))).isEqualTo("OK");
	}

	/** Every call the store makes, its streams' and the Actuator endpoint's {@code find} and {@code delete} included. */
	static void runEveryOperation(IdempotencyStore store) {
		String scope = scopeHash();
		String token = token();
		store.begin(scope, "fp", token, LONG);
		store.renew(scope, token, LONG);
		store.complete(scope, token, binaryOutcome(), LONG);
		store.begin(scope, "fp", token(), LONG);
		store.find(scope);
		store.delete(scope);
		String released = scopeHash();
		store.begin(released, "fp", token, LONG);
		store.release(released, token);
		String streamed = scopeHash();
		store.begin(streamed, "fp", token, LONG);
		store.openStream(streamed, token, new byte[] { 1 });
		store.appendEvents(streamed, token, 1, List.of(new byte[] { 2 }, new byte[] { 3 }));
		store.readStream(streamed, 0, 10);
		store.completeStream(streamed, token, LONG);
		store.readStream(streamed, 1, 10);
	}

	private static LettuceConnectionFactory connectAs(String user) {
		return redis.connectionFactory(user, PASSWORD);
	}

	private static void assertRefused(Runnable call) {
		assertThatExceptionOfType(IdempotencyStoreException.class).isThrownBy(call::run)
			.withCauseInstanceOf(DataAccessException.class);
	}

	/** The newest entry of {@code ACL LOG}, as field names to values. */
	private static Map<String, String> lastRefusal() {
		return refusals(redis).get(0);
	}

	/** The entries of {@code redis}'s {@code ACL LOG}, newest first, each as field names to values. */
	static List<Map<String, String>> refusals(RedisProcess redis) {
		String log = redis.cli("ACL", "LOG");
		List<Map<String, String>> entries = new ArrayList<>();
		if (log.isEmpty()) {
			return entries;
		}
		// redis-cli prints the entries' fields and values one a line, each entry starting with "count".
		List<String> lines = Arrays.asList(log.split("\n"));
		for (int i = 0; i + 1 < lines.size(); i += 2) {
			if ("count".equals(lines.get(i))) {
				entries.add(new LinkedHashMap<>());
			}
			entries.get(entries.size() - 1).put(lines.get(i), lines.get(i + 1));
		}
		return entries;
	}

	/** {@code WAIT 0 100}: how many replicas acknowledged this connection's writes (none run here). */
	@SuppressWarnings("unchecked")
	private static Long waitForReplicas(RedisConnection connection) throws Exception {
		RedisClusterAsyncCommands<byte[], byte[]> commands = (RedisClusterAsyncCommands<byte[], byte[]>) connection
			.getNativeConnection();
		return commands.waitForReplication(0, 100).get(5, TimeUnit.SECONDS);
	}

}
