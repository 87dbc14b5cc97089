package dev.modelgate.consumers.redis;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.modelgate.consumers.support.ReplayScenario;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves that an application with the starter, Spring MVC and Spring Data Redis (no JDBC) starts, that
 * {@code store=auto} picks the Redis store (the record is a hash under {@code modelgate:idempotency:}), replays a
 * retry with the same key and body without running the handler again, and rejects the key with another body.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class RedisOnlyReplayTests extends ReplayScenario {

	/** The README's default {@code redis.key-prefix}, which this application keeps. */
	private static final String KEY_PREFIX = "modelgate:idempotency:";

	@LocalServerPort
	private int port;

	@Autowired
	private OrderController orders;

	@Autowired
	private StringRedisTemplate redis;

	/** Where the application's Redis is, as configured; a property, so that both Spring Boot lines run this test. */
	@Value("${spring.data.redis.host:localhost}:${spring.data.redis.port:6379}")
	private String redisAddress;

	@Override
	protected int port() {
		return this.port;
	}

	@Override
	protected int invocations() {
		return this.orders.invocations();
	}

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
			throw new AssertionError("Redis at " + this.redisAddress
					+ " does not answer; these tests need it (set REDIS_HOST and REDIS_PORT) and never skip", ex);
		}
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

	/** Whether a field of the hash at {@code key} holds {@code part} among its bytes. */
	private boolean holds(String key, byte[] part) {
		Map<byte[], byte[]> fields = this.redis.execute((RedisCallback<Map<byte[], byte[]>>) (connection) -> connection
			.hashCommands()
			.hGetAll(key.getBytes(StandardCharsets.UTF_8)));
		return fields.values().stream().anyMatch((value) -> contains(value, part));
	}

}
