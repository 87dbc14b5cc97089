package dev.modelgate.idempotency.core;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.modelgate.idempotency.core.internal.BlockingIdempotencyStoreAdapter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link RecordEncryption} over the memory store: what reaches the store is sealed, what comes back is
 * the exact bytes, keys rotate, and anything that does not open is never replayed.
 */
class RecordEncryptionTests {

	private static final String MARKER = "patient-4711-diagnosis";

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final Duration TTL = Duration.ofHours(1);

	private static final SecretKey K1 = aesKey(1);

	private static final SecretKey K2 = aesKey(2);

	private final InMemoryIdempotencyStore raw = new InMemoryIdempotencyStore();

	private final TamperingStore tampering = new TamperingStore(this.raw);

	private final IdempotencyStore store = encryption("k1", Map.of("k1", K1)).decorate(this.tampering);

	private final List<AutoCloseable> closing = new ArrayList<>();

	@AfterEach
	void close() throws Exception {
		for (AutoCloseable closeable : this.closing) {
			closeable.close();
		}
	}

	@Test
	void storesSealedBytesAndReplaysTheOriginalBytes() {
		byte[] answer = answer();
		record(this.store, "scope-a", new StoredOutcome(StoredOutcome.Kind.RESPONSE, answer));

		StoredOutcome stored = this.raw.begin("scope-a", "fp", "t2", LEASE).stored();
		assertThat(stored.kind()).isEqualTo(StoredOutcome.Kind.RESPONSE);
		assertThat(text(stored.payload())).doesNotContain(MARKER);
		assertThat(stored.payload()).isNotEqualTo(answer);
		assertThat(this.store.begin("scope-a", "fp", "t3", LEASE).stored().payload()).isEqualTo(answer);
	}

	@Test
	void sealsEmptyOutcomesAndKeepsNotKeptResultsAsTheyAre() {
		record(this.store, "scope-a", StoredOutcome.empty(StoredOutcome.Kind.NULL));
		record(this.store, "scope-b", null);

		assertThat(this.raw.begin("scope-a", "fp", "t", LEASE).stored().size()).isGreaterThan(0);
		assertThat(this.store.begin("scope-a", "fp", "t", LEASE).stored())
			.isEqualTo(StoredOutcome.empty(StoredOutcome.Kind.NULL));
		assertThat(this.store.begin("scope-b", "fp", "t", LEASE)).isEqualTo(BeginResult.completed(null));
	}

	@Test
	void eachRecordIsSealedUnderItsOwnNonce() {
		byte[] answer = answer();
		record(this.store, "scope-a", new StoredOutcome(StoredOutcome.Kind.RESPONSE, answer));
		record(this.store, "scope-b", new StoredOutcome(StoredOutcome.Kind.RESPONSE, answer));

		assertThat(this.raw.begin("scope-a", "fp", "t", LEASE).stored().payload())
			.isNotEqualTo(this.raw.begin("scope-b", "fp", "t", LEASE).stored().payload());
	}

	@Test
	void replaysRecordsOfARetiredKeyStillConfiguredAndSealsNewOnesWithTheActiveKey() {
		byte[] answer = answer();
		record(this.store, "scope-old", new StoredOutcome(StoredOutcome.Kind.VALUE, answer));
		IdempotencyStore rotated = encryption("k2", Map.of("k1", K1, "k2", K2)).decorate(this.raw);

		assertThat(rotated.begin("scope-old", "fp", "t", LEASE).stored().payload()).isEqualTo(answer);
		record(rotated, "scope-new", new StoredOutcome(StoredOutcome.Kind.VALUE, answer));
		assertThat(keyIdOf(this.raw.begin("scope-new", "fp", "t", LEASE).stored().payload())).isEqualTo("k2");
		assertThat(keyIdOf(this.raw.begin("scope-old", "fp", "t", LEASE).stored().payload())).isEqualTo("k1");
		IdempotencyStore onlyNewKey = encryption("k2", Map.of("k2", K2)).decorate(this.raw);
		assertThat(onlyNewKey.begin("scope-new", "fp", "t", LEASE).stored().payload()).isEqualTo(answer);
		assertThat(onlyNewKey.begin("scope-old", "fp", "t", LEASE)).isEqualTo(BeginResult.completed(null));
	}

	@Test
	void aKeyUnderTheSameIdWithOtherBytesIsUnavailable() {
		record(this.store, "scope-a", new StoredOutcome(StoredOutcome.Kind.RESPONSE, answer()));
		IdempotencyStore otherKey = encryption("k1", Map.of("k1", K2)).decorate(this.raw);

		assertThat(otherKey.begin("scope-a", "fp", "t", LEASE)).isEqualTo(BeginResult.completed(null));
	}

	@Test
	void anAlteredByteAnywhereInTheEnvelopeMakesTheRecordUnavailable() {
		byte[] answer = answer();
		int length = sealedLength(answer);
		for (int position : new int[] { 0, 1, 3, 10, 30, length / 2, length - 1 }) {
			this.tampering.flipByteAt = position;
			String scope = "scope-" + position;
			record(this.store, scope, new StoredOutcome(StoredOutcome.Kind.RESPONSE, answer));

			assertThat(this.store.begin(scope, "fp", "t", LEASE)).as("byte %d altered", position)
				.isEqualTo(BeginResult.completed(null));
		}
	}

	@Test
	void anEnvelopeCopiedToAnotherScopeOrKindIsUnavailable() {
		record(this.store, "scope-a", new StoredOutcome(StoredOutcome.Kind.VALUE, answer()));
		StoredOutcome sealed = this.raw.begin("scope-a", "fp", "t", LEASE).stored();

		record(this.raw, "scope-b", sealed);
		record(this.raw, "scope-c", new StoredOutcome(StoredOutcome.Kind.RESPONSE, sealed.payload()));

		assertThat(this.store.begin("scope-b", "fp", "t", LEASE)).isEqualTo(BeginResult.completed(null));
		assertThat(this.store.begin("scope-c", "fp", "t", LEASE)).isEqualTo(BeginResult.completed(null));
		assertThat(this.store.begin("scope-a", "fp", "t", LEASE).stored().payload()).isEqualTo(answer());
	}

	@Test
	void aRecordWrittenBeforeEncryptionWasTurnedOnIsUnavailableNotReplayed() {
		record(this.raw, "scope-a", new StoredOutcome(StoredOutcome.Kind.RESPONSE, answer()));

		assertThat(this.store.begin("scope-a", "fp", "t", LEASE)).isEqualTo(BeginResult.completed(null));
	}

	@Test
	void otherAnswersOfBeginPassUnchanged() {
		assertThat(this.store.begin("scope-a", "fp", "t1", LEASE)).isEqualTo(BeginResult.acquired());
		assertThat(this.store.begin("scope-a", "fp", "t2", LEASE)).isEqualTo(BeginResult.inProgress());
		assertThat(this.store.begin("scope-a", "other", "t2", LEASE)).isEqualTo(BeginResult.mismatch());
	}

	@Test
	void templateRetriesOfAnUnopenableRecordGetResultUnavailableAndDoNotRun() {
		AtomicInteger runs = new AtomicInteger();
		try (IdempotencyCoordinator coordinator = IdempotencyCoordinator.create(this.raw, Duration.ofSeconds(2),
				encryption("k1", Map.of("k1", K1))::decorate)) {
			IdempotencyTemplate template = new IdempotencyTemplate(coordinator, IdempotencyTemplate.Defaults.standard(),
					List.of());
			assertThat(template.execute("mail.send", "key-1", ResultCodec.utf8(), () -> {
				runs.incrementAndGet();
				return MARKER;
			})).isEqualTo(MARKER);
			assertThat(template.execute("mail.send", "key-1", ResultCodec.utf8(), runs::toString)).isEqualTo(MARKER);

			try (IdempotencyCoordinator rotatedTooEarly = IdempotencyCoordinator.create(this.raw, Duration.ofSeconds(2),
					encryption("k2", Map.of("k2", K2))::decorate)) {
				IdempotencyTemplate other = new IdempotencyTemplate(rotatedTooEarly,
						IdempotencyTemplate.Defaults.standard(), List.of());
				assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
					.isThrownBy(() -> other.execute("mail.send", "key-1", ResultCodec.utf8(), () -> {
						runs.incrementAndGet();
						return "ran again";
					}));
			}
		}
		assertThat(runs).hasValue(1);
	}

	@Test
	void streamHeadAndEventsAreSealedAndReadBackExactly() {
		assertThat(this.store.begin("scope-s", "fp", "t1", LEASE)).isEqualTo(BeginResult.acquired());
		byte[] head = ("200 text/event-stream " + MARKER).getBytes(StandardCharsets.UTF_8);
		assertThat(this.store.openStream("scope-s", "t1", head)).isTrue();
		List<byte[]> events = List.of(event(1), event(2), event(3));
		assertThat(this.store.appendEvents("scope-s", "t1", 1, events.subList(0, 2))).isTrue();
		assertThat(this.store.appendEvents("scope-s", "t1", 3, events.subList(2, 3))).isTrue();
		assertThat(this.store.completeStream("scope-s", "t1", TTL)).isTrue();

		StreamSlice sealed = this.raw.readStream("scope-s", 0, 10).orElseThrow();
		assertThat(text(sealed.head())).doesNotContain(MARKER);
		assertThat(sealed.events()).allSatisfy((event) -> assertThat(text(event.data())).doesNotContain(MARKER));
		StreamSlice opened = this.store.readStream("scope-s", 1, 10).orElseThrow();
		assertThat(opened.head()).isEqualTo(head);
		assertThat(opened.events()).containsExactly(new StreamEvent(2, events.get(1)), new StreamEvent(3, events.get(2)));
		assertThat(opened.state()).isEqualTo(StreamSlice.State.COMPLETED);
		assertThat(opened.attempt()).isEqualTo(sealed.attempt());
		StoredOutcome completed = this.store.begin("scope-s", "fp", "t2", LEASE).stored();
		assertThat(completed).isEqualTo(new StoredOutcome(StoredOutcome.Kind.STREAM, head));
	}

	@Test
	void streamEventsSwappedInTheStoreDoNotOpen() {
		this.store.begin("scope-s", "fp", "t1", LEASE);
		this.store.openStream("scope-s", "t1", "head".getBytes(StandardCharsets.UTF_8));
		this.store.appendEvents("scope-s", "t1", 1, List.of(event(1), event(2)));
		List<StreamEvent> sealed = this.raw.readStream("scope-s", 0, 10).orElseThrow().events();
		this.raw.begin("scope-t", "fp", "t1", LEASE);
		this.raw.openStream("scope-t", "t1", this.raw.readStream("scope-s", 0, 10).orElseThrow().head());
		this.raw.appendEvents("scope-t", "t1", 1, List.of(sealed.get(1).data(), sealed.get(0).data()));

		assertThatExceptionOfType(IdempotencyStoreException.class)
			.isThrownBy(() -> this.store.readStream("scope-t", 0, 10))
			.withMessageContaining("scope-t")
			.withMessageContaining("cannot be decrypted");
		assertThat(this.store.readStream("scope-s", 0, 10).orElseThrow().events())
			.containsExactly(new StreamEvent(1, event(1)), new StreamEvent(2, event(2)));
	}

	@Test
	void asynchronousStoreSealsAndOpensTheSameWay() {
		BlockingIdempotencyStoreAdapter adapter = BlockingIdempotencyStoreAdapter.create(this.raw, Duration.ofSeconds(2),
				1, 10);
		this.closing.add(adapter);
		RecordEncryption encryption = encryption("k1", Map.of("k1", K1));
		AsyncIdempotencyStore async = encryption.decorate(adapter);
		byte[] answer = answer();

		assertThat(async.begin("scope-a", "fp", "t1", LEASE).join()).isEqualTo(BeginResult.acquired());
		assertThat(async.complete("scope-a", "t1", new StoredOutcome(StoredOutcome.Kind.RESPONSE, answer), TTL).join())
			.isTrue();
		assertThat(text(this.raw.begin("scope-a", "fp", "t2", LEASE).stored().payload())).doesNotContain(MARKER);
		assertThat(async.begin("scope-a", "fp", "t2", LEASE).join().stored().payload()).isEqualTo(answer);
		assertThat(encryption("k1", Map.of("k1", K1)).decorate(this.raw).begin("scope-a", "fp", "t2", LEASE).stored()
			.payload()).as("sealed by the asynchronous store, opened by a blocking one").isEqualTo(answer);

		record(this.raw, "scope-b", new StoredOutcome(StoredOutcome.Kind.RESPONSE, answer));
		assertThat(async.begin("scope-b", "fp", "t", LEASE).join()).isEqualTo(BeginResult.completed(null));
		async.begin("scope-s", "fp", "t1", LEASE).join();
		async.openStream("scope-s", "t1", answer).join();
		async.appendEvents("scope-s", "t1", 1, List.of(event(1))).join();
		assertThat(text(this.raw.readStream("scope-s", 0, 10).orElseThrow().events().get(0).data()))
			.doesNotContain(MARKER);
		assertThat(async.readStream("scope-s", 0, 10).join().orElseThrow().events())
			.containsExactly(new StreamEvent(1, event(1)));
	}

	@Test
	void keysAreCheckedWhenMadeAndNamedButNeverShownInMessages() {
		assertThatIllegalArgumentException().isThrownBy(() -> RecordEncryptionKeys.of("k1", Map.of()))
			.withMessageContaining("No record encryption key");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RecordEncryptionKeys.of("k1", Map.of("k1", new SecretKeySpec(new byte[16], "AES"))))
			.withMessageContaining("'k1'")
			.withMessageContaining("256-bit");
		assertThatIllegalArgumentException().isThrownBy(() -> RecordEncryptionKeys.of("k3", Map.of("k1", K1, "k2", K2)))
			.withMessageContaining("'k3'")
			.withMessageContaining("k1")
			.withMessageContaining("k2");
		assertThatIllegalArgumentException().isThrownBy(() -> RecordEncryptionKeys.of("a.b", Map.of("a.b", K1)))
			.withMessageContaining("'a.b'");
	}

	private static RecordEncryption encryption(String active, Map<String, SecretKey> keys) {
		return new RecordEncryption(RecordEncryptionKeys.of(active, keys));
	}

	private static void record(IdempotencyStore store, String scope, @Nullable StoredOutcome outcome) {
		assertThat(store.begin(scope, "fp", "t1", LEASE)).isEqualTo(BeginResult.acquired());
		assertThat(store.complete(scope, "t1", outcome, TTL)).isTrue();
	}

	private int sealedLength(byte[] answer) {
		record(this.store, "scope-measure", new StoredOutcome(StoredOutcome.Kind.RESPONSE, answer));
		return this.raw.begin("scope-measure", "fp", "t", LEASE).stored().size();
	}

	private static String keyIdOf(byte[] envelope) {
		return new String(envelope, 2, envelope[1], StandardCharsets.US_ASCII);
	}

	private static byte[] answer() {
		return ("{\"choices\":[{\"message\":{\"content\":\"" + MARKER + "\"}}]}").getBytes(StandardCharsets.UTF_8);
	}

	private static byte[] event(int n) {
		return ("id: " + n + "\ndata: " + MARKER + " part " + n + "\n\n").getBytes(StandardCharsets.UTF_8);
	}

	private static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.ISO_8859_1);
	}

	private static SecretKey aesKey(int seed) {
		byte[] bytes = new byte[32];
		for (int i = 0; i < bytes.length; i++) {
			bytes[i] = (byte) (seed * 31 + i);
		}
		return new SecretKeySpec(bytes, "AES");
	}

	/** Passes everything on, flipping one bit of the next outcome completed when asked to. */
	private static final class TamperingStore implements IdempotencyStore {

		private final IdempotencyStore delegate;

		int flipByteAt = -1;

		TamperingStore(IdempotencyStore delegate) {
			this.delegate = delegate;
		}

		@Override
		public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			return this.delegate.begin(scope, fingerprint, token, leaseTtl);
		}

		@Override
		public boolean renew(String scope, String token, Duration leaseTtl) {
			return this.delegate.renew(scope, token, leaseTtl);
		}

		@Override
		public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
			if (outcome != null && this.flipByteAt >= 0) {
				byte[] altered = outcome.payload().clone();
				altered[this.flipByteAt] ^= 0x01;
				this.flipByteAt = -1;
				return this.delegate.complete(scope, token, new StoredOutcome(outcome.kind(), altered), ttl);
			}
			return this.delegate.complete(scope, token, outcome, ttl);
		}

		@Override
		public boolean release(String scope, String token) {
			return this.delegate.release(scope, token);
		}

		@Override
		public boolean openStream(String scope, String token, byte[] head) {
			return this.delegate.openStream(scope, token, head);
		}

		@Override
		public boolean appendEvents(String scope, String token, long fromSequence, List<byte[]> events) {
			return this.delegate.appendEvents(scope, token, fromSequence, events);
		}

		@Override
		public boolean completeStream(String scope, String token, Duration ttl) {
			return this.delegate.completeStream(scope, token, ttl);
		}

		@Override
		public Optional<StreamSlice> readStream(String scope, long afterSequence, int max) {
			return this.delegate.readStream(scope, afterSequence, max);
		}

	}

}
