package dev.modelgate.idempotency.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.testsupport.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * How many bytes of Redis memory a spent key's marker takes ({@code MEMORY USAGE}, which counts the
 * key, the hash and Redis's own overhead), the figure docs/STORES.md gives for a million spent keys.
 * It fails when a marker grows past the documented bound or outlives its answer with it.
 */
@Tag("store")
class SpentKeySizeTests {

	private static final String PREFIX = "modelgate:test:" + UUID.randomUUID() + ":";

	private static final int KEYS = 200;

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

	@Test
	void aSpentKeysMarkerTakesUnderAKilobyteOfRedisMemory() {
		IdempotencyStore store = new RedisIdempotencyStore(connectionFactory, PREFIX);
		// A typical answer: a JSON body of about a kilobyte with its status and headers.
		StoredOutcome answer = new StoredOutcome(StoredOutcome.Kind.RESPONSE, new byte[1024]);
		List<String> scopes = new ArrayList<>();
		for (int i = 0; i < KEYS; i++) {
			String scope = (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "");
			String token = UUID.randomUUID().toString().replace("-", "");
			// The fingerprint is a SHA-256 in hex, as the library writes it.
			String fingerprint = scope.substring(0, 32) + scope.substring(0, 32);
			store.begin(scope, fingerprint, token, Duration.ofSeconds(30));
			store.complete(scope, token, answer, Duration.ofMillis(300),
					new SpentMarker(Duration.ofDays(7), "201", "/orders/" + (1_000_000 + i)));
			scopes.add(scope);
		}
		long answered = memoryUsage(scopes);
		// The records expire after their ttl on their own; nothing reads them.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> scopes.stream().noneMatch((scope) -> Boolean.TRUE.equals(redis.hasKey(PREFIX + scope))));
		long spent = memoryUsage(scopes);
		for (String scope : scopes) {
			String fingerprint = scope.substring(0, 32) + scope.substring(0, 32);
			assertThat(store.begin(scope, fingerprint, "t", Duration.ofSeconds(30)).outcome()).isEqualTo(Outcome.SPENT);
		}
		System.out.printf("Redis MEMORY USAGE per key: %d bytes with its 1 KiB answer, %d bytes once spent%n",
				answered / KEYS, spent / KEYS);
		assertThat(answered / KEYS).isGreaterThan(1024);
		// The marker is a small hash of its own in the compact listpack encoding: about 400 bytes
		// (docs/STORES.md), against over 2 KiB for the record with its answer.
		assertThat(spent / KEYS).isBetween(100L, 500L);
	}

	private static long memoryUsage(List<String> scopes) {
		// Through a script: the connection's raw execute reads every answer as bytes, and this one is an integer.
		RedisScript<Long> usage = RedisScript.of("return redis.call('MEMORY', 'USAGE', KEYS[1], 'SAMPLES', '0')",
				Long.class);
		long total = 0;
		for (String scope : scopes) {
			for (String key : List.of(PREFIX + scope, PREFIX + "spent:{" + PREFIX + scope + "}")) {
				Long bytes = redis.execute(usage, List.of(key));
				total += (bytes != null) ? bytes : 0;
			}
		}
		return total;
	}

}
