package dev.modelgate.idempotency.core;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;

import dev.modelgate.idempotency.core.internal.BlockingIdempotencyStoreAdapter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@link StoredOutcomeFilter} decides what the store keeps of each completed outcome, and a replay
 * returns what it kept; streams pass it untouched.
 */
class StoredOutcomeFilterTests {

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final Duration TTL = Duration.ofHours(1);

	/** Stands for an application's filter: leaves the {@code "email"} part of a value out. */
	private static final StoredOutcomeFilter WITHOUT_EMAIL = (outcome) -> new StoredOutcome(outcome.kind(),
			text(outcome.payload()).replaceAll(",\"email\":\"[^\"]*\"", "").getBytes(StandardCharsets.UTF_8));

	private final InMemoryIdempotencyStore raw = new InMemoryIdempotencyStore();

	@Test
	void theStoreKeepsAndReplaysWhatTheFilterReturned() {
		IdempotencyStore store = WITHOUT_EMAIL.decorate(this.raw);
		record(store, "scope-a", "{\"id\":7,\"email\":\"ada@example.com\"}");

		assertThat(text(this.raw.begin("scope-a", "fp", "t", LEASE).stored().payload())).isEqualTo("{\"id\":7}");
		assertThat(text(store.begin("scope-a", "fp", "t", LEASE).stored().payload())).isEqualTo("{\"id\":7}");
	}

	@Test
	void aFilterThatKeepsNothingLeavesACompletedRecordWithoutItsResult() {
		IdempotencyStore store = ((StoredOutcomeFilter) (outcome) -> null).decorate(this.raw);
		record(store, "scope-a", "{\"id\":7}");

		assertThat(store.begin("scope-a", "fp", "t", LEASE)).isEqualTo(BeginResult.completed(null));
	}

	@Test
	void theFilterRunsBeforeEncryption() {
		RecordEncryption encryption = new RecordEncryption(
				RecordEncryptionKeys.of("k1", Map.of("k1", new SecretKeySpec(new byte[32], "AES"))));
		IdempotencyStore store = WITHOUT_EMAIL.decorate(encryption.decorate(this.raw));
		record(store, "scope-a", "{\"id\":7,\"email\":\"ada@example.com\"}");

		assertThat(text(this.raw.begin("scope-a", "fp", "t", LEASE).stored().payload())).doesNotContain("id\":7");
		assertThat(text(store.begin("scope-a", "fp", "t", LEASE).stored().payload())).isEqualTo("{\"id\":7}");
	}

	@Test
	void streamsAreKeptAsTheyWereSent() {
		IdempotencyStore store = WITHOUT_EMAIL.decorate(this.raw);
		store.begin("scope-s", "fp", "t1", LEASE);
		store.openStream("scope-s", "t1", "head,\"email\":\"x\"".getBytes(StandardCharsets.UTF_8));
		store.appendEvents("scope-s", "t1", 1, List.of("data: ,\"email\":\"x\"\n\n".getBytes(StandardCharsets.UTF_8)));

		StreamSlice slice = store.readStream("scope-s", 0, 10).orElseThrow();
		assertThat(text(slice.head())).contains("email");
		assertThat(text(slice.events().get(0).data())).contains("email");
	}

	@Test
	void theAsynchronousStoreFiltersTheSameWay() throws Exception {
		try (BlockingIdempotencyStoreAdapter adapter = BlockingIdempotencyStoreAdapter.create(this.raw,
				Duration.ofSeconds(2), 1, 10)) {
			AsyncIdempotencyStore store = WITHOUT_EMAIL.decorate(adapter);
			store.begin("scope-a", "fp", "t1", LEASE).join();
			store.complete("scope-a", "t1", value("{\"id\":7,\"email\":\"ada@example.com\"}"), TTL).join();

			assertThat(text(store.begin("scope-a", "fp", "t", LEASE).join().stored().payload())).isEqualTo("{\"id\":7}");
		}
	}

	private static void record(IdempotencyStore store, String scope, String value) {
		assertThat(store.begin(scope, "fp", "t1", LEASE)).isEqualTo(BeginResult.acquired());
		assertThat(store.complete(scope, "t1", value(value), TTL)).isTrue();
	}

	private static StoredOutcome value(String value) {
		return new StoredOutcome(StoredOutcome.Kind.VALUE, value.getBytes(StandardCharsets.UTF_8));
	}

	private static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}

}
