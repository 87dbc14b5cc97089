package dev.modelgate.idempotency.web.reactive;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

import dev.modelgate.idempotency.testsupport.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Encryption at rest in a WebFlux application on Redis, whose reactive Redis store the engine calls
 * directly (no blocking store, no store decorator in between): the answer is not in plaintext in
 * Redis, and the replay is the first answer byte for byte.
 */
@Tag("boot")
@SpringBootTest(classes = ReactiveTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "modelgate.idempotency.store=redis",
				"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
				"modelgate.idempotency.encryption.active-key-id=k1",
				"modelgate.idempotency.encryption.keys.k1=AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=" })
class EncryptedRecordsReactiveHttpTests {

	private static final String PREFIX = "modelgate:test:" + UUID.randomUUID() + ":";

	private static final String MARKER = "marker-personal-answer-5d0e";

	@LocalServerPort
	private int port;

	@Autowired
	private RedisConnectionFactory connectionFactory;

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
		String key = UUID.randomUUID().toString();
		String body = "{\"note\":\"" + MARKER + "\"}";
		Set<String> before = recordKeys();
		EntityExchangeResult<byte[]> first = post(key, body);
		Set<String> after = recordKeys();
		after.removeAll(before);

		assertThat(first.getStatus().value()).isEqualTo(201);
		assertThat(new String(first.getResponseBody(), StandardCharsets.UTF_8)).contains(MARKER);
		assertThat(after).hasSize(1);
		String location = first.getResponseHeaders().getFirst("Location");
		assertThat(hgetall(after.iterator().next())).contains("completed").doesNotContain(MARKER).doesNotContain(location);

		EntityExchangeResult<byte[]> replay = post(key, body);
		assertThat(replay.getStatus().value()).isEqualTo(201);
		assertThat(replay.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(replay.getResponseBody()).isEqualTo(first.getResponseBody());
		assertThat(replay.getResponseHeaders().getFirst("Location")).isEqualTo(location);
	}

	private EntityExchangeResult<byte[]> post(String key, String body) {
		return WebTestClient.bindToServer()
			.baseUrl("http://127.0.0.1:" + this.port)
			.responseTimeout(Duration.ofSeconds(30))
			.build()
			.post()
			.uri("/orders")
			.contentType(MediaType.APPLICATION_JSON)
			.header("Idempotency-Key", key)
			.bodyValue(body)
			.exchange()
			.expectBody()
			.returnResult();
	}

	private Set<String> recordKeys() {
		if (cleanUp == null) {
			cleanUp = new StringRedisTemplate(this.connectionFactory);
			cleanUp.afterPropertiesSet();
		}
		return new HashSet<>(cleanUp.keys(PREFIX + "*"));
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

}
