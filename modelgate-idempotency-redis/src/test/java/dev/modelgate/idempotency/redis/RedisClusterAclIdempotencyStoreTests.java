package dev.modelgate.idempotency.redis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.test.IdempotencyStoreContractTests;
import dev.modelgate.idempotency.testsupport.RedisProcess;

import static dev.modelgate.idempotency.redis.RedisAclIdempotencyStoreTests.KEY_PREFIX;
import static dev.modelgate.idempotency.redis.RedisAclIdempotencyStoreTests.PASSWORD;
import static dev.modelgate.idempotency.redis.RedisAclIdempotencyStoreTests.STORE_RULES;
import static dev.modelgate.idempotency.redis.RedisAclIdempotencyStoreTests.STORE_USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The store contract on Redis Cluster (one node holding every slot) as the README's user with the
 * one rule Cluster adds, {@code +cluster|nodes}, through which Lettuce reads the topology; a user
 * without it gets a store failure.
 */
@Tag("store")
class RedisClusterAclIdempotencyStoreTests extends IdempotencyStoreContractTests {

	/** The README's rule for Cluster, added to the store's. */
	static final String CLUSTER_RULE = "+cluster|nodes";

	/**
	 * What Lettuce's topology refresh also sends and goes on without when refused: it names its
	 * connections, and reads each node's id and {@code INFO}.
	 */
	static final List<String> QUIET_RULES = List.of("+client|setname", "+cluster|myid", "+info");

	/** What Lettuce goes on without: the above, and its library name on Redis 7.2 and later. */
	static final Set<String> IGNORED_BY_LETTUCE = Set.of("client|setname", "cluster|myid", "info", "client|setinfo");

	private static RedisProcess redis;

	private static LettuceConnectionFactory connectionFactory;

	@BeforeAll
	static void startClusterWithTheStoreUser() {
		redis = RedisProcess.startCluster();
		List<String> rules = new ArrayList<>(STORE_RULES);
		rules.add(CLUSTER_RULE);
		RedisAclIdempotencyStoreTests.createUser(redis, STORE_USER, rules);
		connectionFactory = connectAs(STORE_USER);
	}

	@AfterAll
	static void stopRedis() {
		connectionFactory.destroy();
		redis.close();
	}

	@AfterEach
	void nothingButWhatLettuceIgnoresWasRefused() {
		assertThat(RedisAclIdempotencyStoreTests.refusals(redis)).as("refusals in ACL LOG")
			.allSatisfy((refusal) -> assertThat(refusal.get("object")).isIn(IGNORED_BY_LETTUCE));
	}

	@Override
	protected IdempotencyStore createStore() {
		return new RedisIdempotencyStore(connectionFactory, KEY_PREFIX);
	}

	@Test
	void scriptsGoOutOnTheSharedClusterConnection() {
		RedisIdempotencyStore store = new RedisIdempotencyStore(connectionFactory, KEY_PREFIX);
		store.begin(scopeHash(), "fp", token(), LONG);
		assertThat(store.scriptCalls()).isEqualTo("Lettuce shared connection");
	}

	@Test
	void userWithoutTheClusterRuleGetsAStoreFailure() {
		RedisAclIdempotencyStoreTests.createUser(redis, "without-cluster-nodes", STORE_RULES);
		LettuceConnectionFactory restricted = connectAs("without-cluster-nodes");
		try {
			IdempotencyStore store = new RedisIdempotencyStore(restricted, KEY_PREFIX);
			assertThatExceptionOfType(IdempotencyStoreException.class)
				.isThrownBy(() -> store.begin(scopeHash(), "fp", token(), LONG))
				.withCauseInstanceOf(DataAccessException.class)
				.withStackTraceContaining("NOPERM this user has no permissions to run the 'cluster|nodes' command");
		}
		finally {
			restricted.destroy();
			redis.cli("ACL", "DELUSER", "without-cluster-nodes");
			redis.cli("ACL", "LOG", "RESET");
		}
	}

	@Test
	void quietRulesLeaveNothingInAclLog() {
		List<String> rules = new ArrayList<>(STORE_RULES);
		rules.add(CLUSTER_RULE);
		rules.addAll(QUIET_RULES);
		RedisAclIdempotencyStoreTests.createUser(redis, "modelgate-quiet", rules);
		LettuceConnectionFactory quiet = connectAs("modelgate-quiet");
		try {
			RedisAclIdempotencyStoreTests.runEveryOperation(new RedisIdempotencyStore(quiet, KEY_PREFIX));
			assertThat(RedisAclIdempotencyStoreTests.refusals(redis))
				.filteredOn((refusal) -> "modelgate-quiet".equals(refusal.get("username")))
				.allSatisfy((refusal) -> assertThat(refusal.get("object")).isEqualTo("client|setinfo"));
		}
		finally {
			quiet.destroy();
			redis.cli("ACL", "DELUSER", "modelgate-quiet");
		}
	}

	@Test
	void docsGiveTheTestedClusterRules() throws IOException {
		assertThat(Files.readString(Path.of("..", "docs", "STORES.md"))).contains("`" + CLUSTER_RULE + "`");
		assertThat(Files.readString(Path.of("..", "docs", "STORES.md")))
			.contains("`" + String.join(" ", QUIET_RULES) + "`");
	}

	private static LettuceConnectionFactory connectAs(String user) {
		RedisClusterConfiguration cluster = new RedisClusterConfiguration(List.of("127.0.0.1:" + redis.port()));
		cluster.setUsername(user);
		cluster.setPassword(RedisPassword.of(PASSWORD));
		LettuceConnectionFactory factory = new LettuceConnectionFactory(cluster,
				LettuceClientConfiguration.defaultConfiguration());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

}
