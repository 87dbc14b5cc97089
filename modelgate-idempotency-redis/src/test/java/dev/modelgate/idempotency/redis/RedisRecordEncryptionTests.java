package dev.modelgate.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.RecordEncryption;
import dev.modelgate.idempotency.core.RecordEncryptionKeys;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamEvent;
import dev.modelgate.idempotency.testsupport.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Encryption at rest on a real Redis: what {@code HGETALL} shows of a record never holds the answer in
 * plaintext, a replay still gives the exact bytes, and bytes altered or moved in Redis are never
 * replayed.
 */
@Tag("store")
class RedisRecordEncryptionTests {

	private static final String PREFIX = "modelgate:test:" + UUID.randomUUID() + ":";

	private static final String MARKER = "marker-7f3a-personal-answer";

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final Duration TTL = Duration.ofMinutes(5);

	private static LettuceConnectionFactory connectionFactory;

	private final RecordEncryption encryption = new RecordEncryption(RecordEncryptionKeys.of("k1",
			Map.of("k1", new SecretKeySpec(new byte[] { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
					19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 }, "AES"))));

	private final IdempotencyStore raw = new RedisIdempotencyStore(connectionFactory, PREFIX);

	private final IdempotencyStore store = this.encryption.decorate(this.raw);

	@BeforeAll
	static void connect() {
		connectionFactory = RedisTestServer.connectionFactory();
	}

	@AfterAll
	static void deleteRecordsAndDisconnect() {
		StringRedisTemplate redis = new StringRedisTemplate(connectionFactory);
		Set<String> keys = redis.keys(PREFIX + "*");
		if (!keys.isEmpty()) {
			redis.delete(keys);
		}
		connectionFactory.destroy();
	}

	@Test
	void withoutEncryptionTheRawReadSeesTheMarker() {
		String scope = scope();
		record(this.raw, scope, answer());

		assertThat(rawRecord(scope)).contains(MARKER);
	}

	@Test
	void theRecordInRedisHoldsNoPlaintextAndAReplayGivesTheExactBytes() {
		String scope = scope();
		record(this.store, scope, answer());

		assertThat(rawRecord(scope)).contains("completed").doesNotContain(MARKER);
		assertThat(this.store.begin(scope, "fp", "t2", LEASE).stored())
			.isEqualTo(new StoredOutcome(StoredOutcome.Kind.RESPONSE, answer()));
	}

	@Test
	void theReactiveRedisStoreKeepsItEncryptedToo() {
		AsyncIdempotencyStore async = this.encryption
			.decorate(new AsyncRedisIdempotencyStore(connectionFactory, PREFIX, Duration.ofSeconds(10)));
		String scope = scope();
		assertThat(async.begin(scope, "fp", "t1", LEASE).join()).isEqualTo(BeginResult.acquired());
		assertThat(async.complete(scope, "t1", new StoredOutcome(StoredOutcome.Kind.RESPONSE, answer()), TTL).join())
			.isTrue();

		assertThat(rawRecord(scope)).doesNotContain(MARKER);
		assertThat(async.begin(scope, "fp", "t2", LEASE).join().stored().payload()).isEqualTo(answer());
		assertThat(this.store.begin(scope, "fp", "t2", LEASE).stored().payload()).isEqualTo(answer());
	}

	@Test
	void aRecordedStreamHoldsNoPlaintextAndReadsBackExactly() {
		String scope = scope();
		this.store.begin(scope, "fp", "t1", LEASE);
		byte[] head = ("head " + MARKER).getBytes(StandardCharsets.UTF_8);
		assertThat(this.store.openStream(scope, "t1", head)).isTrue();
		assertThat(this.store.appendEvents(scope, "t1", 1, List.of(event(1), event(2)))).isTrue();
		assertThat(this.store.completeStream(scope, "t1", TTL)).isTrue();

		assertThat(rawRecord(scope)).contains("e:2").doesNotContain(MARKER);
		assertThat(this.store.readStream(scope, 0, 10).orElseThrow().events())
			.containsExactly(new StreamEvent(1, event(1)), new StreamEvent(2, event(2)));
		assertThat(this.store.begin(scope, "fp", "t2", LEASE).stored())
			.isEqualTo(new StoredOutcome(StoredOutcome.Kind.STREAM, head));
	}

	@Test
	void anOutcomeAlteredInRedisIsUnavailableNotReplayed() {
		String scope = scope();
		record(this.store, scope, answer());
		byte[] outcome = field(scope, "outcome");
		outcome[outcome.length - 20] ^= 0x01;
		setField(scope, "outcome", outcome);

		assertThat(this.store.begin(scope, "fp", "t2", LEASE)).isEqualTo(BeginResult.completed(null));
	}

	@Test
	void anOutcomeCopiedInRedisFromAnotherRecordIsUnavailable() {
		String source = scope();
		String target = scope();
		record(this.store, source, answer());
		record(this.store, target, "{\"other\":true}".getBytes(StandardCharsets.UTF_8));
		setField(target, "outcome", field(source, "outcome"));

		assertThat(this.store.begin(target, "fp", "t2", LEASE)).isEqualTo(BeginResult.completed(null));
		assertThat(this.store.begin(source, "fp", "t2", LEASE).stored().payload()).isEqualTo(answer());
	}

	@Test
	void anEventAlteredInRedisFailsTheStreamReadInsteadOfReplayingIt() {
		String scope = scope();
		this.store.begin(scope, "fp", "t1", LEASE);
		this.store.openStream(scope, "t1", "head".getBytes(StandardCharsets.UTF_8));
		this.store.appendEvents(scope, "t1", 1, List.of(event(1), event(2)));
		setField(scope, "e:2", field(scope, "e:1"));

		assertThatExceptionOfType(IdempotencyStoreException.class)
			.isThrownBy(() -> this.store.readStream(scope, 0, 10))
			.withMessageContaining("cannot be decrypted");
	}

	private static void record(IdempotencyStore store, String scope, byte[] body) {
		assertThat(store.begin(scope, "fp", "t1", LEASE)).isEqualTo(BeginResult.acquired());
		assertThat(store.complete(scope, "t1", new StoredOutcome(StoredOutcome.Kind.RESPONSE, body), TTL)).isTrue();
	}

	/** {@code HGETALL} of the scope's key, every field and value as text. */
	private static String rawRecord(String scope) {
		try (RedisConnection connection = connectionFactory.getConnection()) {
			Map<byte[], byte[]> hash = connection.hashCommands().hGetAll(key(scope));
			assertThat(hash).isNotEmpty();
			StringBuilder text = new StringBuilder();
			hash.forEach((field, value) -> text.append(new String(field, StandardCharsets.ISO_8859_1))
				.append('=')
				.append(new String(value, StandardCharsets.ISO_8859_1))
				.append('\n'));
			return text.toString();
		}
	}

	private static byte[] field(String scope, String field) {
		try (RedisConnection connection = connectionFactory.getConnection()) {
			return connection.hashCommands().hGet(key(scope), field.getBytes(StandardCharsets.US_ASCII));
		}
	}

	private static void setField(String scope, String field, byte[] value) {
		try (RedisConnection connection = connectionFactory.getConnection()) {
			connection.hashCommands().hSet(key(scope), field.getBytes(StandardCharsets.US_ASCII), value);
		}
	}

	private static byte[] key(String scope) {
		return (PREFIX + scope).getBytes(StandardCharsets.UTF_8);
	}

	private static String scope() {
		return UUID.randomUUID().toString().replace("-", "");
	}

	private static byte[] answer() {
		return ("{\"choices\":[{\"message\":{\"content\":\"" + MARKER + "\"}}]}").getBytes(StandardCharsets.UTF_8);
	}

	private static byte[] event(int n) {
		return ("id: " + n + "\ndata: " + MARKER + " " + n + "\n\n").getBytes(StandardCharsets.UTF_8);
	}

}
