package dev.modelgate.idempotency.jdbc;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.RecordEncryption;
import dev.modelgate.idempotency.core.RecordEncryptionKeys;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamEvent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Encryption at rest on a real PostgreSQL (and MariaDB, {@link MariaDbRecordEncryptionTests}): what a {@code SELECT} of the records and events tables
 * shows never holds the answer in plaintext, a replay still gives the exact bytes, and bytes altered
 * in the table are never replayed.
 */
@Tag("store")
class JdbcRecordEncryptionTests {

	private static final String TABLE = "modelgate_idempotency_encryption_test";

	private static final String MARKER = "marker-7f3a-personal-answer";

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final Duration TTL = Duration.ofMinutes(5);

	private final JdbcTemplate jdbcTemplate = new JdbcTemplate(database().dataSource());

	private final IdempotencyStore raw = database().store(this.jdbcTemplate, TABLE);

	private final IdempotencyStore store = new RecordEncryption(RecordEncryptionKeys.of("k1",
			Map.of("k1", new SecretKeySpec(new byte[] { 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 11, 12, 13, 14, 15, 16, 17, 18, 19,
					20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 }, "AES"))))
		.decorate(this.raw);

	/** {@return the database under test} */
	TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

	@BeforeEach
	void createTable() {
		database().createOnce(TABLE);
	}

	@Test
	void withoutEncryptionTheSelectSeesTheMarker() {
		String scope = scope();
		record(this.raw, scope, answer());

		assertThat(rawRecord(scope)).contains(MARKER);
	}

	@Test
	void theRowHoldsNoPlaintextAndAReplayGivesTheExactBytes() {
		String scope = scope();
		record(this.store, scope, answer());

		assertThat(rawRecord(scope)).contains("completed").doesNotContain(MARKER);
		assertThat(this.store.begin(scope, "fp", "t2", LEASE).stored())
			.isEqualTo(new StoredOutcome(StoredOutcome.Kind.RESPONSE, answer()));
	}

	@Test
	void aRecordedStreamHoldsNoPlaintextAndReadsBackExactly() {
		String scope = scope();
		this.store.begin(scope, "fp", "t1", LEASE);
		byte[] head = ("head " + MARKER).getBytes(StandardCharsets.UTF_8);
		assertThat(this.store.openStream(scope, "t1", head)).isTrue();
		assertThat(this.store.appendEvents(scope, "t1", 1, List.of(event(1), event(2)))).isTrue();
		assertThat(this.store.completeStream(scope, "t1", TTL)).isTrue();

		assertThat(rawEvents(scope)).hasSize(3).allSatisfy((data) -> assertThat(data).doesNotContain(MARKER));
		assertThat(rawRecord(scope)).doesNotContain(MARKER);
		assertThat(this.store.readStream(scope, 0, 10).orElseThrow().events())
			.containsExactly(new StreamEvent(1, event(1)), new StreamEvent(2, event(2)));
		assertThat(this.store.begin(scope, "fp", "t2", LEASE).stored())
			.isEqualTo(new StoredOutcome(StoredOutcome.Kind.STREAM, head));
	}

	@Test
	void anOutcomeAlteredInTheTableIsUnavailableNotReplayed() {
		String scope = scope();
		record(this.store, scope, answer());
		byte[] outcome = this.jdbcTemplate.queryForObject("SELECT outcome FROM " + TABLE + " WHERE scope = ?",
				byte[].class, scope);
		outcome[outcome.length - 20] ^= 0x01;
		this.jdbcTemplate.update("UPDATE " + TABLE + " SET outcome = ? WHERE scope = ?", outcome, scope);

		assertThat(this.store.begin(scope, "fp", "t2", LEASE)).isEqualTo(BeginResult.completed(null));
	}

	@Test
	void anOutcomeCopiedInTheTableFromAnotherRecordIsUnavailable() {
		String source = scope();
		String target = scope();
		record(this.store, source, answer());
		record(this.store, target, "{\"other\":true}".getBytes(StandardCharsets.UTF_8));
		byte[] copied = this.jdbcTemplate.queryForObject("SELECT outcome FROM " + TABLE + " WHERE scope = ?",
				byte[].class, source);
		this.jdbcTemplate.update("UPDATE " + TABLE + " SET outcome = ? WHERE scope = ?", copied, target);

		assertThat(this.store.begin(target, "fp", "t2", LEASE)).isEqualTo(BeginResult.completed(null));
		assertThat(this.store.begin(source, "fp", "t2", LEASE).stored().payload()).isEqualTo(answer());
	}

	@Test
	void anEventAlteredInTheTableFailsTheStreamReadInsteadOfReplayingIt() {
		String scope = scope();
		this.store.begin(scope, "fp", "t1", LEASE);
		this.store.openStream(scope, "t1", "head".getBytes(StandardCharsets.UTF_8));
		this.store.appendEvents(scope, "t1", 1, List.of(event(1), event(2)));
		byte[] first = this.jdbcTemplate.queryForObject(
				"SELECT data FROM " + TABLE + "_events WHERE scope = ? AND seq = 1", byte[].class, scope);
		this.jdbcTemplate.update("UPDATE " + TABLE + "_events SET data = ? WHERE scope = ? AND seq = 2", first, scope);

		assertThatExceptionOfType(IdempotencyStoreException.class)
			.isThrownBy(() -> this.store.readStream(scope, 0, 10))
			.withMessageContaining("cannot be decrypted");
	}

	private static void record(IdempotencyStore store, String scope, byte[] body) {
		assertThat(store.begin(scope, "fp", "t1", LEASE)).isEqualTo(BeginResult.acquired());
		assertThat(store.complete(scope, "t1", new StoredOutcome(StoredOutcome.Kind.RESPONSE, body), TTL)).isTrue();
	}

	/** The record's row, every column as text (byte columns as their bytes). */
	private String rawRecord(String scope) {
		List<Map<String, Object>> rows = this.jdbcTemplate.queryForList("SELECT * FROM " + TABLE + " WHERE scope = ?",
				scope);
		assertThat(rows).hasSize(1);
		StringBuilder text = new StringBuilder();
		rows.get(0).forEach((column, value) -> text.append(column)
			.append('=')
			.append((value instanceof byte[] bytes) ? new String(bytes, StandardCharsets.ISO_8859_1) : value)
			.append('\n'));
		return text.toString();
	}

	private List<String> rawEvents(String scope) {
		return this.jdbcTemplate.query("SELECT data FROM " + TABLE + "_events WHERE scope = ? ORDER BY seq",
				(row, n) -> new String(row.getBytes(1), StandardCharsets.ISO_8859_1), scope);
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
