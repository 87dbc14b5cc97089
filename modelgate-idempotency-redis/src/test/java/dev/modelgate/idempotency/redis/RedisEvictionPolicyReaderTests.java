package dev.modelgate.idempotency.redis;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.modelgate.idempotency.redis.RedisEvictionPolicy.Source;
import dev.modelgate.idempotency.testsupport.RedisProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The eviction policy read from real servers, each started with the policy under test: with CONFIG GET, with
 * INFO for an ACL user not allowed CONFIG, unknown for a user allowed neither, and a failure for a server
 * that cannot be reached.
 */
@Tag("store")
class RedisEvictionPolicyReaderTests {

	@Test
	void readsAnEvictingPolicyWithConfigGet() {
		try (RedisProcess redis = RedisProcess.start("--maxmemory", "2mb", "--maxmemory-policy",
				"allkeys-lru")) {
			RedisEvictionPolicy policy = read(redis.connectionFactory());
			assertThat(policy.name()).isEqualTo("allkeys-lru");
			assertThat(policy.source()).isEqualTo(Source.CONFIG);
			assertThat(policy.isKnown()).isTrue();
			assertThat(policy.isNoEviction()).isFalse();
		}
	}

	@Test
	void readsNoeviction() {
		try (RedisProcess redis = RedisProcess.start("--maxmemory-policy", "noeviction")) {
			RedisEvictionPolicy policy = read(redis.connectionFactory());
			assertThat(policy.name()).isEqualTo("noeviction");
			assertThat(policy.isNoEviction()).isTrue();
		}
	}

	@Test
	void fallsBackToInfoForAUserNotAllowedConfigAndDoesNotAskConfigAgain() {
		try (RedisProcess redis = RedisProcess.start("--maxmemory-policy", "volatile-lru")) {
			assertThat(redis.cli("ACL", "SETUSER", "app", "on", ">secret", "~*", "&*", "+@all", "-config"))
				.isEqualTo("OK");
			LettuceConnectionFactory factory = redis.connectionFactory("app", "secret");
			try {
				RedisEvictionPolicyReader reader = new RedisEvictionPolicyReader(factory);
				RedisEvictionPolicy policy = reader.read();
				assertThat(policy.name()).isEqualTo("volatile-lru");
				assertThat(policy.source()).isEqualTo(Source.INFO);
				assertThat(reader.read().name()).isEqualTo("volatile-lru");
			}
			finally {
				factory.destroy();
			}
			// One refusal, so one NOPERM in the server's ACL log, however often the policy is read.
			assertThat(redis.cli("INFO", "commandstats"))
				.containsPattern("cmdstat_config\\|get:calls=0,.*rejected_calls=1,");
		}
	}

	/**
	 * A read given up while Redis is slow (the start-up check's thread interrupted at its timeout) says
	 * nothing about the policy: it fails, and the next read asks again and gets the policy, rather than
	 * an "unknown" kept for the life of the process.
	 */
	@Test
	void readInterruptedWhileRedisIsSlowIsNotARefusalAndTheNextReadAsksAgain() throws Exception {
		try (RedisProcess redis = RedisProcess.start("--maxmemory-policy", "allkeys-lru")) {
			LettuceConnectionFactory factory = redis.connectionFactory();
			try {
				RedisEvictionPolicyReader reader = new RedisEvictionPolicyReader(factory);
				factory.getConnection().close();
				redis.freeze();
				FutureTask<RedisEvictionPolicy> read = new FutureTask<>(reader::read);
				Thread reading = new Thread(read, "eviction-policy-read");
				reading.start();
				await().atMost(Duration.ofSeconds(10)).until(() -> reading.getState() == Thread.State.TIMED_WAITING
						|| reading.getState() == Thread.State.WAITING);
				reading.interrupt();
				assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> read.get(10, TimeUnit.SECONDS));
				redis.resume();
				RedisEvictionPolicy policy = reader.read();
				assertThat(policy.isKnown()).isTrue();
				assertThat(policy.name()).isEqualTo("allkeys-lru");
			}
			finally {
				redis.resume();
				factory.destroy();
			}
		}
	}

	@Test
	void isUnknownForAUserAllowedNeitherConfigNorInfo() {
		try (RedisProcess redis = RedisProcess.start("--maxmemory-policy", "allkeys-lru")) {
			assertThat(redis.cli("ACL", "SETUSER", "app", "on", ">secret", "~*", "&*", "+@all", "-config", "-info"))
				.isEqualTo("OK");
			RedisEvictionPolicy policy = read(redis.connectionFactory("app", "secret"));
			assertThat(policy.isKnown()).isFalse();
			assertThat(policy.isNoEviction()).isFalse();
			assertThat(policy.name()).isEqualTo("unknown");
			assertThat(policy.source()).isEqualTo(Source.NONE);
			assertThat(policy.unknownReason()).contains("CONFIG GET maxmemory-policy refused", "INFO memory refused",
					"NOPERM");
		}
	}

	@Test
	void redisThatCannotBeReachedIsAFailureNotAnUnknownPolicy() throws IOException {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", closedPort));
		factory.afterPropertiesSet();
		factory.start();
		try {
			assertThatExceptionOfType(RedisConnectionFailureException.class)
				.isThrownBy(() -> new RedisEvictionPolicyReader(factory).read());
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void clusterAnswerIsTheEvictingPolicyOfAnyNode() {
		Properties answer = new Properties();
		answer.setProperty("127.0.0.1:7000.maxmemory-policy", "noeviction");
		answer.setProperty("127.0.0.1:7001.maxmemory-policy", "allkeys-lfu");
		answer.setProperty("127.0.0.1:7002.maxmemory-policy", "noeviction");
		assertThat(RedisEvictionPolicyReader.policyIn(answer, "maxmemory-policy")).isEqualTo("allkeys-lfu");
		answer.setProperty("127.0.0.1:7001.maxmemory-policy", "noeviction");
		assertThat(RedisEvictionPolicyReader.policyIn(answer, "maxmemory-policy")).isEqualTo("noeviction");
		assertThat(RedisEvictionPolicyReader.policyIn(new Properties(), "maxmemory-policy")).isNull();
	}

	private static RedisEvictionPolicy read(LettuceConnectionFactory factory) {
		try {
			return new RedisEvictionPolicyReader(factory).read();
		}
		finally {
			factory.destroy();
		}
	}

}
