package dev.modelgate.idempotency.test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.IdempotencyRecord;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.SpentKey;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * The behaviour every {@link IdempotencyStore} promises, run against each implementation on a real
 * server. Subclasses only say how to build the store.
 */
public abstract class IdempotencyStoreContractTests {

	/** A lease or retention that does not run out during a test. */
	protected static final Duration LONG = Duration.ofMinutes(5);

	/** A lease that a test waits out. */
	protected static final Duration SHORT_LEASE = Duration.ofMillis(300);

	private IdempotencyStore store;

	private String scope;

	/** {@return a store on an empty key space, called before each test} */
	protected abstract IdempotencyStore createStore();

	@BeforeEach
	void createStoreAndScope() {
		this.store = createStore();
		this.scope = scopeHash();
	}

	/** {@return the store under test} */
	protected IdempotencyStore store() {
		return this.store;
	}

	/** {@return a fresh random scope hash} */
	protected static String scopeHash() {
		// Two random UUIDs give the 64 hex digits of a SHA-256 scope hash.
		return (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "");
	}

	/** {@return a fresh random token} */
	protected static String token() {
		return UUID.randomUUID().toString().replace("-", "");
	}

	/** {@return an outcome whose bytes are no valid UTF-8, with CR LF and NUL in them: kept byte for byte} */
	protected static StoredOutcome binaryOutcome() {
		byte[] payload = new byte[] { 0, (byte) 0xFF, (byte) 0xC3, 0x28, '\r', '\n', 0x7F, (byte) 0x80 };
		return new StoredOutcome(StoredOutcome.Kind.RESPONSE, payload);
	}

	@Test
	void beginAcquiresWhenNoRecordExists() {
		assertThat(this.store.begin(this.scope, "fp", token(), LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
	}

	@Test
	void beginReportsInProgressForSameFingerprintWhileHeld() {
		this.store.begin(this.scope, "fp", token(), LONG);
		assertThat(this.store.begin(this.scope, "fp", token(), LONG).outcome()).isEqualTo(Outcome.IN_PROGRESS);
	}

	@Test
	void beginReportsMismatchForAnotherFingerprintWhileInProgress() {
		this.store.begin(this.scope, "fp", token(), LONG);
		assertThat(this.store.begin(this.scope, "other", token(), LONG).outcome()).isEqualTo(Outcome.MISMATCH);
	}

	@Test
	void beginReportsMismatchForAnotherFingerprintOnceCompleted() {
		String token = token();
		this.store.begin(this.scope, "fp", token, LONG);
		this.store.complete(this.scope, token, binaryOutcome(), LONG);
		assertThat(this.store.begin(this.scope, "other", token(), LONG).outcome()).isEqualTo(Outcome.MISMATCH);
	}

	@Test
	void completedRecordReplaysKindAndBytesExactly() {
		String token = token();
		this.store.begin(this.scope, "fp", token, LONG);
		assertThat(this.store.complete(this.scope, token, binaryOutcome(), LONG)).isTrue();
		BeginResult replay = this.store.begin(this.scope, "fp", token(), LONG);
		assertThat(replay.outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(replay.stored()).isEqualTo(binaryOutcome());
	}

	@Test
	void completedRecordWithEmptyPayloadReplaysItsKind() {
		String token = token();
		this.store.begin(this.scope, "fp", token, LONG);
		this.store.complete(this.scope, token, StoredOutcome.empty(StoredOutcome.Kind.NULL), LONG);
		StoredOutcome replay = this.store.begin(this.scope, "fp", token(), LONG).stored();
		assertThat(replay.kind()).isEqualTo(StoredOutcome.Kind.NULL);
		assertThat(replay.payload()).isEmpty();
	}

	@Test
	void completedWithoutResultReportsCompletedWithNoResponse() {
		String token = token();
		this.store.begin(this.scope, "fp", token, LONG);
		assertThat(this.store.complete(this.scope, token, null, LONG)).isTrue();
		BeginResult replay = this.store.begin(this.scope, "fp", token(), LONG);
		assertThat(replay.outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(replay.stored()).isNull();
	}

	@Test
	void releaseDeletesRecordSoRetryAcquires() {
		String token = token();
		this.store.begin(this.scope, "fp", token, LONG);
		assertThat(this.store.release(this.scope, token)).isTrue();
		assertThat(this.store.begin(this.scope, "other", token(), LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
	}

	@Test
	void transitionsAreRefusedForAnotherToken() {
		this.store.begin(this.scope, "fp", token(), LONG);
		String intruder = token();
		assertThat(this.store.renew(this.scope, intruder, LONG)).isFalse();
		assertThat(this.store.complete(this.scope, intruder, binaryOutcome(), LONG)).isFalse();
		assertThat(this.store.release(this.scope, intruder)).isFalse();
		assertThat(this.store.begin(this.scope, "fp", token(), LONG).outcome()).isEqualTo(Outcome.IN_PROGRESS);
	}

	@Test
	void transitionsAreRefusedWhenNoRecordExists() {
		assertThat(this.store.renew(this.scope, token(), LONG)).isFalse();
		assertThat(this.store.complete(this.scope, token(), binaryOutcome(), LONG)).isFalse();
		assertThat(this.store.release(this.scope, token())).isFalse();
	}

	@Test
	void completedRecordIsFinalForItsOwnHolder() {
		String token = token();
		this.store.begin(this.scope, "fp", token, LONG);
		this.store.complete(this.scope, token, binaryOutcome(), LONG);
		assertThat(this.store.complete(this.scope, token, new StoredOutcome(StoredOutcome.Kind.RESPONSE, new byte[0]), LONG))
			.isFalse();
		assertThat(this.store.release(this.scope, token)).isFalse();
		assertThat(this.store.renew(this.scope, token, LONG)).isFalse();
		assertThat(this.store.begin(this.scope, "fp", token(), LONG).stored()).isEqualTo(binaryOutcome());
	}

	@Test
	void expiredLeaseIsTakenOverAndStaleHolderIsRefused() throws Exception {
		String stale = token();
		this.store.begin(this.scope, "fp", stale, SHORT_LEASE);
		awaitNoLiveRecord(this.scope);
		String current = token();
		assertThat(this.store.begin(this.scope, "fp", current, LONG).outcome()).isEqualTo(Outcome.ACQUIRED);

		assertThat(this.store.renew(this.scope, stale, LONG)).isFalse();
		assertThat(this.store.complete(this.scope, stale, new StoredOutcome(StoredOutcome.Kind.RESPONSE, "stale".getBytes()), LONG))
			.isFalse();
		assertThat(this.store.release(this.scope, stale)).isFalse();

		assertThat(this.store.complete(this.scope, current, binaryOutcome(), LONG)).isTrue();
		assertThat(this.store.begin(this.scope, "fp", token(), LONG).stored()).isEqualTo(binaryOutcome());
	}

	@Test
	void renewKeepsLeaseAlivePastItsFirstExpiry() throws Exception {
		String token = token();
		this.store.begin(this.scope, "fp", token, SHORT_LEASE);
		Thread.sleep(SHORT_LEASE.toMillis() / 2);
		assertThat(this.store.renew(this.scope, token, LONG)).isTrue();
		// Past the first lease's end: time passing is what this tests.
		Thread.sleep(SHORT_LEASE.toMillis() + 200);
		assertThat(this.store.begin(this.scope, "fp", token(), LONG).outcome()).isEqualTo(Outcome.IN_PROGRESS);
		assertThat(this.store.complete(this.scope, token, binaryOutcome(), LONG)).isTrue();
	}

	@Test
	void completedRecordExpiresAfterItsTtl() throws Exception {
		String token = token();
		this.store.begin(this.scope, "fp", token, LONG);
		this.store.complete(this.scope, token, binaryOutcome(), Duration.ofMillis(300));
		awaitNoLiveRecord(this.scope);
		assertThat(this.store.begin(this.scope, "other", token(), LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
	}

	@Test
	void largeBinaryBodySurvivesRoundTrip() {
		byte[] body = new byte[1024 * 1024];
		new java.util.Random(42).nextBytes(body);
		String token = token();
		this.store.begin(this.scope, "fp", token, LONG);
		this.store.complete(this.scope, token, new StoredOutcome(StoredOutcome.Kind.RESPONSE, body), LONG);
		assertThat(this.store.begin(this.scope, "fp", token(), LONG).stored().payload()).isEqualTo(body);
	}

	@Test
	void concurrentBeginsOnOneScopeAcquireExactlyOnce() throws Exception {
		assertOneAcquiresAndTheRestSeeItInProgress(raceBegins(this.scope, 24));
	}

	/**
	 * Starts {@code threads} begins on one scope at the same moment and returns their outcomes.
	 * @param scope the scope every thread begins
	 * @param threads how many threads race
	 * @return what each begin answered
	 * @throws Exception when a thread fails or the race does not finish in time
	 */
	protected List<Outcome> raceBegins(String scope, int threads) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<Outcome>> outcomes = new ArrayList<>();
			for (int i = 0; i < threads; i++) {
				outcomes.add(pool.submit(() -> {
					start.await();
					return this.store.begin(scope, "fp", token(), LONG).outcome();
				}));
			}
			start.countDown();
			List<Outcome> results = new ArrayList<>();
			for (Future<Outcome> outcome : outcomes) {
				results.add(outcome.get(30, TimeUnit.SECONDS));
			}
			return results;
		}
		finally {
			pool.shutdown();
		}
	}

	/**
	 * Asserts that exactly one begin of a race acquired and the others found it in progress.
	 * @param results what each begin answered
	 */
	protected static void assertOneAcquiresAndTheRestSeeItInProgress(List<Outcome> results) {
		assertThat(results).filteredOn((o) -> o == Outcome.ACQUIRED).hasSize(1);
		assertThat(results).filteredOn((o) -> o == Outcome.IN_PROGRESS).hasSize(results.size() - 1);
	}

	@Test
	void findShowsInProgressRecordWithItsTimesAndNoResponse() {
		this.store.begin(this.scope, "fp", token(), LONG);
		IdempotencyRecord record = this.store.find(this.scope).orElseThrow();
		assertThat(record.scope()).isEqualTo(this.scope);
		assertThat(record.state()).isEqualTo(IdempotencyRecord.State.IN_PROGRESS);
		// The store's clock and this JVM's are the same machine's here.
		assertThat(record.createdAt()).isCloseTo(Instant.now(), within(Duration.ofSeconds(5)));
		assertThat(record.age()).isBetween(Duration.ZERO, Duration.ofSeconds(5));
		assertThat(record.expiresIn()).isBetween(LONG.minusSeconds(5), LONG);
		assertThat(record.outcomeKind()).isNull();
		assertThat(record.outcomeSize()).isNull();
		assertThat(record.isOutcomeStored()).isFalse();
	}

	@Test
	void findShowsCompletedRecordWithStoredStatusAndSizeForItsTtl() {
		String token = token();
		this.store.begin(this.scope, "fp", token, LONG);
		Instant createdAt = this.store.find(this.scope).orElseThrow().createdAt();
		this.store.complete(this.scope, token, binaryOutcome(), Duration.ofHours(1));
		IdempotencyRecord record = this.store.find(this.scope).orElseThrow();
		assertThat(record.state()).isEqualTo(IdempotencyRecord.State.COMPLETED);
		assertThat(record.createdAt()).isEqualTo(createdAt);
		assertThat(record.expiresIn()).isBetween(Duration.ofMinutes(59), Duration.ofHours(1));
		assertThat(record.outcomeKind()).isEqualTo(StoredOutcome.Kind.RESPONSE);
		assertThat(record.outcomeSize()).isEqualTo(binaryOutcome().size());
		assertThat(record.isOutcomeStored()).isTrue();
	}

	@Test
	void findShowsCompletedRecordWithoutResultAsHavingNoResponse() {
		String token = token();
		this.store.begin(this.scope, "fp", token, LONG);
		this.store.complete(this.scope, token, null, LONG);
		IdempotencyRecord record = this.store.find(this.scope).orElseThrow();
		assertThat(record.state()).isEqualTo(IdempotencyRecord.State.COMPLETED);
		assertThat(record.outcomeKind()).isNull();
		assertThat(record.outcomeSize()).isNull();
	}

	@Test
	void findFindsNothingWithoutALiveRecord() throws Exception {
		assertThat(this.store.find(this.scope)).isEmpty();
		String token = token();
		this.store.begin(this.scope, "fp", token, LONG);
		this.store.release(this.scope, token);
		assertThat(this.store.find(this.scope)).isEmpty();
		this.store.begin(this.scope, "fp", token(), SHORT_LEASE);
		// Past the lease's end: time passing is what this tests.
		Thread.sleep(SHORT_LEASE.toMillis() + 200);
		assertThat(this.store.find(this.scope)).isEmpty();
	}

	@Test
	void deleteRemovesACompletedRecordSoTheKeyRunsAgain() {
		String token = token();
		this.store.begin(this.scope, "fp", token, LONG);
		this.store.complete(this.scope, token, binaryOutcome(), LONG);
		assertThat(this.store.delete(this.scope)).isTrue();
		assertThat(this.store.find(this.scope)).isEmpty();
		assertThat(this.store.begin(this.scope, "fp", token(), LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
	}

	@Test
	void deleteOfAnInProgressRecordTakesTheLeaseFromItsHolder() {
		String holder = token();
		this.store.begin(this.scope, "fp", holder, LONG);
		assertThat(this.store.delete(this.scope)).isTrue();
		assertThat(this.store.renew(this.scope, holder, LONG)).isFalse();
		assertThat(this.store.complete(this.scope, holder, binaryOutcome(), LONG)).isFalse();
		assertThat(this.store.release(this.scope, holder)).isFalse();
		assertThat(this.store.begin(this.scope, "fp", token(), LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
	}

	@Test
	void deleteAnswersFalseWithoutALiveRecord() throws Exception {
		assertThat(this.store.delete(this.scope)).isFalse();
		this.store.begin(this.scope, "fp", token(), SHORT_LEASE);
		awaitNoLiveRecord(this.scope);
		assertThat(this.store.delete(this.scope)).isFalse();
		assertThat(this.store.begin(this.scope, "fp", token(), LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
	}

	/**
	 * Runs the store's purge of expired records, for stores that have one (the JDBC store); by
	 * default nothing, for stores whose records expire on their own (Redis, memory).
	 */
	protected void purge() {
	}

	/**
	 * {@return the bytes of the stored answer the store still holds for {@code scope}, expired or not}
	 * By default what {@link IdempotencyStore#find} reports; stores override it to look at their raw data.
	 * @param scope the scope hash
	 */
	protected long answerBytesKept(String scope) {
		return this.store.find(scope).map((record) -> (record.outcomeSize() != null) ? record.outcomeSize() : 0L)
			.orElse(0L);
	}

	/**
	 * {@return whether the store still holds anything for {@code scope}, expired or not} By default
	 * whether {@link IdempotencyStore#find} finds a live record; stores override it to look at their raw data.
	 * @param scope the scope hash
	 */
	protected boolean keepsAnything(String scope) {
		return this.store.find(scope).isPresent();
	}

	@Test
	void spentKeyAfterTtlAnswersSpentWithStatusCompletionTimeAndResource() {
		String token = token();
		this.store.begin(this.scope, "fp", token, LONG);
		Instant before = Instant.now();
		assertThat(this.store.complete(this.scope, token, binaryOutcome(), Duration.ofMillis(300),
				new SpentMarker(LONG, "201", "/orders/42"))).isTrue();
		Instant after = Instant.now();
		BeginResult replay = this.store.begin(this.scope, "fp", token(), LONG);
		assertThat(replay.outcome()).as("within the ttl the answer replays").isEqualTo(Outcome.COMPLETED);
		assertThat(replay.stored()).isEqualTo(binaryOutcome());
		BeginResult spent = awaitSpent(this.scope);
		SpentKey marker = spent.spent();
		assertThat(spent.stored()).isNull();
		assertThat(marker.status()).isEqualTo("201");
		assertThat(marker.resource()).isEqualTo("/orders/42");
		// The store's clock (Redis, the database) may differ a little from the JVM's.
		assertThat(marker.completedAt()).isBetween(before.minusSeconds(5), after.plusSeconds(5));
		assertThat(this.store.begin(this.scope, "fp", token(), LONG).outcome())
			.as("a spent key never acquires within its retention").isEqualTo(Outcome.SPENT);
	}

	@Test
	void spentKeyKeepsNoAnswer() {
		String token = token();
		this.store.begin(this.scope, "fp", token, LONG);
		this.store.complete(this.scope, token, largeOutcome(), Duration.ofMillis(300), new SpentMarker(LONG, "200", null));
		assertThat(answerBytesKept(this.scope)).isEqualTo(largeOutcome().size());
		assertThat(awaitSpent(this.scope).spent().resource()).isNull();
		purge();
		assertThat(answerBytesKept(this.scope)).as("the answer's bytes once the key is spent").isZero();
		IdempotencyRecord record = this.store.find(this.scope).orElseThrow();
		assertThat(record.state()).isEqualTo(IdempotencyRecord.State.COMPLETED);
		assertThat(record.isOutcomeStored()).isFalse();
		assertThat(record.expiresIn()).as("the marker lasts for its retention").isGreaterThan(LONG.minusMinutes(1));
	}

	@Test
	void spentKeyWithAnotherFingerprintIsAMismatch() {
		String token = token();
		this.store.begin(this.scope, "fp", token, LONG);
		this.store.complete(this.scope, token, binaryOutcome(), Duration.ofMillis(300), new SpentMarker(LONG, "201", null));
		awaitSpent(this.scope);
		assertThat(this.store.begin(this.scope, "other", token(), LONG).outcome()).isEqualTo(Outcome.MISMATCH);
	}

	@Test
	void spentKeyWithoutAKeptResultIsSpentToo() {
		String token = token();
		this.store.begin(this.scope, "fp", token, LONG);
		this.store.complete(this.scope, token, null, Duration.ofMillis(300), new SpentMarker(LONG, "unknown", null));
		assertThat(this.store.begin(this.scope, "fp", token(), LONG).outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(awaitSpent(this.scope).spent().status()).isEqualTo("unknown");
	}

	@Test
	void spentKeyIsFreeAgainAfterItsRetention() {
		String token = token();
		this.store.begin(this.scope, "fp", token, LONG);
		this.store.complete(this.scope, token, binaryOutcome(), Duration.ofMillis(200),
				new SpentMarker(Duration.ofMillis(600), "201", null));
		awaitSpent(this.scope);
		await("the spent key of " + this.scope + " to be free again").atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> this.store.begin(this.scope, "fp", token(), LONG).outcome(), (outcome) -> {
				assertThat(outcome).isIn(Outcome.SPENT, Outcome.ACQUIRED);
				return outcome == Outcome.ACQUIRED;
			});
	}

	@Test
	void purgeRemovesExpiredMarkers() {
		String token = token();
		this.store.begin(this.scope, "fp", token, LONG);
		this.store.complete(this.scope, token, binaryOutcome(), Duration.ofMillis(100),
				new SpentMarker(Duration.ofMillis(300), "201", "/orders/42"));
		awaitNoLiveRecord(this.scope);
		purge();
		await("the expired marker of " + this.scope + " to be gone").atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> !keepsAnything(this.scope));
	}

	@Test
	void withoutRetentionTheKeyIsFreeOnceTheAnswerExpires() {
		String token = token();
		this.store.begin(this.scope, "fp", token, LONG);
		this.store.complete(this.scope, token, binaryOutcome(), Duration.ofMillis(300));
		await("the answer of " + this.scope + " to expire").atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> this.store.begin(this.scope, "fp", token(), LONG).outcome(), (outcome) -> {
				assertThat(outcome).as("no marker without a retention").isIn(Outcome.COMPLETED, Outcome.ACQUIRED);
				return outcome == Outcome.ACQUIRED;
			});
	}

	/** {@return an answer larger than a marker, so that keeping it or not shows} */
	protected static StoredOutcome largeOutcome() {
		byte[] payload = new byte[4096];
		for (int i = 0; i < payload.length; i++) {
			payload[i] = (byte) i;
		}
		return new StoredOutcome(StoredOutcome.Kind.RESPONSE, payload);
	}

	/** Waits until {@code begin} with fingerprint {@code fp} answers that the key is spent. */
	private BeginResult awaitSpent(String scope) {
		return await("the answer of " + scope + " to expire into a spent key").atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> this.store.begin(scope, "fp", token(), LONG), (result) -> {
				assertThat(result.outcome()).isIn(Outcome.COMPLETED, Outcome.SPENT);
				return result.outcome() == Outcome.SPENT;
			});
	}

	/** Waits until the store finds no live record of the scope: its lease or its ttl ran out. */
	private void awaitNoLiveRecord(String scope) {
		await("the record of " + scope + " to run out").atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> this.store.find(scope).isEmpty());
	}

}
