package dev.modelgate.consumers.redis;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.data.redis.RedisProperties;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves that an application with the starter, Spring MVC and Spring Data Redis (no JDBC) starts, that
 * {@code store=auto} picks the Redis store (the record is a hash under {@code modelgate:idempotency:}), replays a
 * retry with the same key and body without running the handler again, and rejects the key with another body.
 *
 * <p>On Spring Boot 3.5: the test of consumers/redis-only, with Spring Boot 3's Redis properties class.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class RedisOnlyReplayTests {

	/** The header that marks a replay: Stripe's name, the starter's default. */
	private static final List<String> REPLAYED_HEADER_NAMES = List.of("Idempotent-Replayed");

	/** The README's default {@code redis.key-prefix}, which this application keeps. */
	private static final String KEY_PREFIX = "modelgate:idempotency:";

	private static final String ORDER = "{\"item\":\"book\",\"quantity\":1}";

	private static final String OTHER_ORDER = "{\"item\":\"book\",\"quantity\":2}";

	private static final HttpClient HTTP = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private OrderController orders;

	@Autowired
	private StringRedisTemplate redis;

	@Autowired
	private RedisProperties redisProperties;

	/**
	 * The application starts without Redis (its client connects lazily), so say plainly when Redis is not there
	 * rather than fail later on a 503.
	 */
	@BeforeEach
	void redisAnswers() {
		try {
			this.redis.execute((RedisCallback<String>) (connection) -> connection.ping());
		}
		catch (RuntimeException ex) {
			throw new AssertionError("Redis at " + this.redisProperties.getHost() + ":" + this.redisProperties.getPort()
					+ " does not answer; these tests need it (set REDIS_HOST and REDIS_PORT) and never skip", ex);
		}
	}

	@Test
	void retryWithTheSameKeyAndBodyIsReplayedWithoutRunningTheHandlerAgain() throws Exception {
		String key = UUID.randomUUID().toString();
		int before = this.orders.invocations();

		HttpResponse<byte[]> first = post(key, ORDER);
		assertThat(first.statusCode()).as(describe(first)).isBetween(200, 299);
		assertThat(replayedHeaders(first)).as(describe(first)).isEmpty();

		HttpResponse<byte[]> retry = post(key, ORDER);
		assertThat(retry.statusCode()).as(describe(retry)).isEqualTo(first.statusCode());
		assertThat(retry.body()).as(describe(retry)).isEqualTo(first.body());
		assertThat(replayedHeaders(retry).values()).as(describe(retry))
			.anySatisfy((values) -> assertThat(values).containsExactly("true"));

		assertThat(this.orders.invocations() - before).as("handler runs").isEqualTo(1);
	}

	@Test
	void sameKeyWithADifferentBodyIsRejectedWith422ProblemWithoutRunningTheHandler() throws Exception {
		String key = UUID.randomUUID().toString();
		HttpResponse<byte[]> first = post(key, ORDER);
		assertThat(first.statusCode()).as(describe(first)).isBetween(200, 299);
		int before = this.orders.invocations();

		HttpResponse<byte[]> reused = post(key, OTHER_ORDER);
		assertThat(reused.statusCode()).as(describe(reused)).isEqualTo(422);
		assertThat(reused.headers().firstValue("Content-Type")).as(describe(reused))
			.hasValueSatisfying((type) -> assertThat(MediaType.parseMediaType(type)
				.equalsTypeAndSubtype(MediaType.APPLICATION_PROBLEM_JSON)).as(type).isTrue());

		assertThat(this.orders.invocations()).as("handler runs").isEqualTo(before);
	}

	@Test
	void completedResponseIsRecordedInRedisUnderTheModelgatePrefix() throws Exception {
		HttpResponse<byte[]> first = post(UUID.randomUUID().toString(), ORDER);
		assertThat(first.statusCode()).as(describe(first)).isBetween(200, 299);

		// The body holds a fresh id, so the record with a field that holds these bytes is this request's record
		// (whichever field: the record's layout is the store's business).
		List<String> states = new ArrayList<>();
		ScanOptions pattern = ScanOptions.scanOptions().match(KEY_PREFIX + "*").count(1000).build();
		try (Cursor<String> keys = this.redis.scan(pattern)) {
			keys.forEachRemaining((key) -> {
				if (this.redis.type(key) == DataType.HASH && holds(key, first.body())) {
					states.add(this.redis.<String, String>opsForHash().get(key, "state"));
				}
			});
		}
		assertThat(states).as("states of the records under %s holding the response", KEY_PREFIX)
			.containsExactly("completed");
	}

	private HttpResponse<byte[]> post(String key, String json) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/orders"))
			.header("Content-Type", "application/json")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build();
		return HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
	}

	private static Map<String, List<String>> replayedHeaders(HttpResponse<?> response) {
		return REPLAYED_HEADER_NAMES.stream()
			.filter((name) -> response.headers().firstValue(name).isPresent())
			.collect(Collectors.toMap((name) -> name, (name) -> response.headers().allValues(name)));
	}

	/** Whether a field of the hash at {@code key} holds {@code part} among its bytes. */
	private boolean holds(String key, byte[] part) {
		Map<byte[], byte[]> fields = this.redis.execute((RedisCallback<Map<byte[], byte[]>>) (connection) -> connection
			.hashCommands()
			.hGetAll(key.getBytes(StandardCharsets.UTF_8)));
		return fields.values().stream().anyMatch((value) -> contains(value, part));
	}

	private static boolean contains(byte[] bytes, byte[] part) {
		return new String(bytes, StandardCharsets.ISO_8859_1).contains(new String(part, StandardCharsets.ISO_8859_1));
	}

	private static String describe(HttpResponse<byte[]> response) {
		return response.statusCode() + " " + response.headers().map() + " "
				+ new String(response.body(), StandardCharsets.UTF_8);
	}

}
