package dev.modelgate.idempotency.web.servlet;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.modelgate.idempotency.testsupport.RedisTestServer;
import dev.modelgate.idempotency.testsupport.TestHttp;
import dev.modelgate.idempotency.web.testapp.Invocations;
import dev.modelgate.idempotency.web.testapp.TestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Encryption at rest over real HTTP on a real Redis: the recorded answer (body and headers) is not in
 * plaintext in Redis, the replay is the first answer byte for byte, and a record altered in Redis is
 * answered 410 instead of being replayed or run again.
 */
@Tag("boot")
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.idempotency.store=redis",
				"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
				"modelgate.idempotency.encryption.active-key-id=k1",
				"modelgate.idempotency.encryption.keys.k1=AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=" })
class EncryptedRecordsHttpTests {

	private static final String PREFIX = "modelgate:test:" + UUID.randomUUID() + ":";

	private static final String MARKER = "marker-personal-answer-91c2";

	@LocalServerPort
	private int port;

	@Autowired
	private RedisConnectionFactory connectionFactory;

	@Autowired
	private Invocations invocations;

	private static StringRedisTemplate cleanUp;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", RedisTestServer::host);
		registry.add("spring.data.redis.port", RedisTestServer::port);
		registry.add("modelgate.idempotency.redis.key-prefix", () -> PREFIX);
	}

	@AfterAll
	static void deleteRecords() {
		if (cleanUp != null) {
			Set<String> keys = cleanUp.keys(PREFIX + "*");
			if (!keys.isEmpty()) {
				cleanUp.delete(keys);
			}
		}
	}

	@Test
	void theAnswerIsEncryptedInRedisAndReplayedByteForByte() {
		TestHttp http = new TestHttp(this.port);
		String key = UUID.randomUUID().toString();
		String body = "{\"note\":\"" + MARKER + "\"}";
		Set<String> before = recordKeys();
		HttpResponse<String> first = http.post("/orders", key, body);
		String recordKey = newRecordKey(before);

		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(first.body()).contains(MARKER);
		String location = first.headers().firstValue("Location").orElseThrow();
		String raw = hgetall(recordKey);
		assertThat(raw).contains("completed").doesNotContain(MARKER).doesNotContain(location);

		HttpResponse<String> replay = http.post("/orders", key, body);
		assertThat(replay.statusCode()).isEqualTo(201);
		assertThat(replay.headers().firstValue(IdempotencyFilter.REPLAYED_HEADER)).hasValue("true");
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(replay.headers().firstValue("Location")).hasValue(location);
		assertThat(replay.headers().firstValue("ETag")).isEqualTo(first.headers().firstValue("ETag"));
	}

	@Test
	void aRecordAlteredInRedisIsAnswered410AndNeitherReplayedNorRunAgain() {
		TestHttp http = new TestHttp(this.port);
		String key = UUID.randomUUID().toString();
		String body = "{\"note\":\"" + MARKER + "\"}";
		Set<String> before = recordKeys();
		HttpResponse<String> first = http.post("/orders", key, body);
		String recordKey = newRecordKey(before);
		byte[] outcome = hget(recordKey, "outcome");
		outcome[outcome.length / 2] ^= 0x01;
		hset(recordKey, "outcome", outcome);

		int runs = this.invocations.count("orders");
		HttpResponse<String> retry = http.post("/orders", key, body);
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(this.invocations.count("orders")).isEqualTo(runs);
		assertThat(retry.statusCode()).isEqualTo(410);
		assertThat(retry.body()).contains("idempotency_result_unavailable").doesNotContain(MARKER);
		assertThat(retry.headers().firstValue("Location")).isEmpty();
	}

	private Set<String> recordKeys() {
		if (cleanUp == null) {
			cleanUp = new StringRedisTemplate(this.connectionFactory);
			cleanUp.afterPropertiesSet();
		}
		return new HashSet<>(cleanUp.keys(PREFIX + "*"));
	}

	private String newRecordKey(Set<String> before) {
		Set<String> after = recordKeys();
		after.removeAll(before);
		assertThat(after).hasSize(1);
		return after.iterator().next();
	}

	/** {@code HGETALL} of the record, every field and value as text. */
	private String hgetall(String key) {
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			Map<byte[], byte[]> hash = connection.hashCommands().hGetAll(key.getBytes(StandardCharsets.UTF_8));
			StringBuilder text = new StringBuilder();
			hash.forEach((field, value) -> text.append(new String(field, StandardCharsets.ISO_8859_1))
				.append('=')
				.append(new String(value, StandardCharsets.ISO_8859_1))
				.append('\n'));
			return text.toString();
		}
	}

	private byte[] hget(String key, String field) {
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			return connection.hashCommands()
				.hGet(key.getBytes(StandardCharsets.UTF_8), field.getBytes(StandardCharsets.US_ASCII));
		}
	}

	private void hset(String key, String field, byte[] value) {
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			connection.hashCommands()
				.hSet(key.getBytes(StandardCharsets.UTF_8), field.getBytes(StandardCharsets.US_ASCII), value);
		}
	}

}
