package dev.modelgate.idempotency.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StoredOutcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The behaviour every {@link AsyncIdempotencyStore} promises, run against each implementation on a
 * real server: every case of {@link IdempotencyStoreContractTests}, through the futures (each waited
 * for), then what is particular to futures (concurrent calls from one thread, failures delivered
 * through the future) and to a fleet that mixes the store with its blocking counterpart on the same
 * records. Subclasses say how to build the store, the blocking store on the same records, and a store
 * that cannot reach its server.
 *
 * <p>{@code find} and {@code delete} are operators' calls, which the asynchronous interface does not
 * have: their cases run on the blocking store, on records that the asynchronous one wrote.
 */
public abstract class AsyncIdempotencyStoreContractTests extends IdempotencyStoreContractTests {

	private static final int CONCURRENT_BEGINS = 20;

	private AsyncIdempotencyStore asyncStore;

	private IdempotencyStore blockingStore;

	/** {@return the store under test on an empty key space, called before each test} */
	protected abstract AsyncIdempotencyStore createAsyncStore();

	/**
	 * {@return a blocking store on the records of the store that {@link #createAsyncStore()} built last: the
	 * same server and key space, as another instance of a fleet that mixes both kinds of store}
	 */
	protected abstract IdempotencyStore createBlockingStoreOnTheSameRecords();

	/** {@return the store under test, built so that it cannot reach its server} */
	protected abstract AsyncIdempotencyStore createUnreachableStore();

	@Override
	protected final IdempotencyStore createStore() {
		this.asyncStore = createAsyncStore();
		this.blockingStore = createBlockingStoreOnTheSameRecords();
		return new JoiningIdempotencyStore(this.asyncStore, this.blockingStore);
	}

	/** {@return the asynchronous store under test} */
	protected AsyncIdempotencyStore asyncStore() {
		return this.asyncStore;
	}

	/** {@return the blocking store on the same records} */
	protected IdempotencyStore blockingStore() {
		return this.blockingStore;
	}

	@Test
	void concurrentBeginsFromOneThreadAcquireExactlyOnce() {
		String scope = scopeHash();
		List<CompletableFuture<BeginResult>> futures = new ArrayList<>();
		for (int i = 0; i < CONCURRENT_BEGINS; i++) {
			futures.add(this.asyncStore.begin(scope, "fp", token(), LONG));
		}
		assertOneAcquiresAndTheRestSeeItInProgress(
				futures.stream().map(JoiningIdempotencyStore::join).map(BeginResult::outcome).toList());
	}

	@Test
	void concurrentBeginsFromManyThreadsAcquireExactlyOnce() throws Exception {
		String scope = scopeHash();
		ExecutorService pool = Executors.newFixedThreadPool(CONCURRENT_BEGINS);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<CompletableFuture<BeginResult>>> calls = new ArrayList<>();
			for (int i = 0; i < CONCURRENT_BEGINS; i++) {
				calls.add(pool.submit(() -> {
					start.await();
					return this.asyncStore.begin(scope, "fp", token(), LONG);
				}));
			}
			start.countDown();
			List<Outcome> outcomes = new ArrayList<>();
			for (Future<CompletableFuture<BeginResult>> call : calls) {
				outcomes.add(JoiningIdempotencyStore.join(call.get(30, TimeUnit.SECONDS)).outcome());
			}
			assertOneAcquiresAndTheRestSeeItInProgress(outcomes);
		}
		finally {
			pool.shutdown();
		}
	}

	@Test
	void holderCompletesAfterConcurrentDuplicatesAndEveryLaterBeginReplays() {
		String scope = scopeHash();
		String holder = token();
		assertThat(JoiningIdempotencyStore.join(this.asyncStore.begin(scope, "fp", holder, LONG)).outcome())
			.isEqualTo(Outcome.ACQUIRED);
		List<CompletableFuture<BeginResult>> duplicates = new ArrayList<>();
		for (int i = 0; i < CONCURRENT_BEGINS; i++) {
			duplicates.add(this.asyncStore.begin(scope, "fp", token(), LONG));
		}
		CompletableFuture<Boolean> completed = this.asyncStore.complete(scope, holder, binaryOutcome(), LONG);
		assertThat(JoiningIdempotencyStore.join(completed)).isTrue();
		assertThat(duplicates).map(JoiningIdempotencyStore::join)
			.allSatisfy((result) -> assertThat(result.outcome()).isIn(Outcome.IN_PROGRESS, Outcome.COMPLETED));
		BeginResult replay = JoiningIdempotencyStore.join(this.asyncStore.begin(scope, "fp", token(), LONG));
		assertThat(replay.outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(replay.stored()).isEqualTo(binaryOutcome());
	}

	@Test
	void everyTransitionOfAnUnreachableStoreFailsItsFutureWithAStoreFailure() {
		AsyncIdempotencyStore unreachable = createUnreachableStore();
		String scope = scopeHash();
		String token = token();
		List<Supplier<CompletableFuture<?>>> calls = List.of(() -> unreachable.begin(scope, "fp", token, LONG),
				() -> unreachable.renew(scope, token, LONG),
				() -> unreachable.complete(scope, token, binaryOutcome(), LONG),
				() -> unreachable.complete(scope, token, null, LONG), () -> unreachable.release(scope, token));
		for (Supplier<CompletableFuture<?>> call : calls) {
			// The call itself must not throw: the failure is the future's.
			CompletableFuture<?> future = call.get();
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> future.get(30, TimeUnit.SECONDS))
				.withCauseInstanceOf(IdempotencyStoreException.class);
		}
	}

	@Test
	void recordBegunByTheBlockingStoreIsRenewedAndCompletedByThisOne() {
		String scope = scopeHash();
		String token = token();
		assertThat(this.blockingStore.begin(scope, "fp", token, LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
		assertThat(JoiningIdempotencyStore.join(this.asyncStore.begin(scope, "fp", token(), LONG)).outcome())
			.isEqualTo(Outcome.IN_PROGRESS);
		assertThat(JoiningIdempotencyStore.join(this.asyncStore.begin(scope, "other", token(), LONG)).outcome())
			.isEqualTo(Outcome.MISMATCH);
		assertThat(JoiningIdempotencyStore.join(this.asyncStore.renew(scope, token, LONG))).isTrue();
		assertThat(JoiningIdempotencyStore.join(this.asyncStore.complete(scope, token, binaryOutcome(), LONG)))
			.isTrue();
		BeginResult replay = this.blockingStore.begin(scope, "fp", token(), LONG);
		assertThat(replay.outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(replay.stored()).isEqualTo(binaryOutcome());
	}

	@Test
	void recordBegunByThisStoreIsCompletedByTheBlockingOneAndReplayedByBoth() {
		String scope = scopeHash();
		String token = token();
		assertThat(JoiningIdempotencyStore.join(this.asyncStore.begin(scope, "fp", token, LONG)).outcome())
			.isEqualTo(Outcome.ACQUIRED);
		assertThat(this.blockingStore.begin(scope, "fp", token(), LONG).outcome()).isEqualTo(Outcome.IN_PROGRESS);
		assertThat(this.blockingStore.begin(scope, "other", token(), LONG).outcome()).isEqualTo(Outcome.MISMATCH);
		assertThat(this.blockingStore.renew(scope, token, LONG)).isTrue();
		assertThat(this.blockingStore.complete(scope, token, binaryOutcome(), LONG)).isTrue();
		BeginResult replay = JoiningIdempotencyStore.join(this.asyncStore.begin(scope, "fp", token(), LONG));
		assertThat(replay.outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(replay.stored()).isEqualTo(binaryOutcome());
		assertThat(this.blockingStore.begin(scope, "fp", token(), LONG).stored()).isEqualTo(binaryOutcome());
	}

	@Test
	void releaseAndCompletionWithoutResultAreSeenByBothStores() {
		String released = scopeHash();
		String token = token();
		this.blockingStore.begin(released, "fp", token, LONG);
		assertThat(JoiningIdempotencyStore.join(this.asyncStore.release(released, token))).isTrue();
		assertThat(this.blockingStore.begin(released, "other", token(), LONG).outcome()).isEqualTo(Outcome.ACQUIRED);

		String notKept = scopeHash();
		JoiningIdempotencyStore.join(this.asyncStore.begin(notKept, "fp", token, LONG));
		assertThat(this.blockingStore.complete(notKept, token, null, LONG)).isTrue();
		BeginResult replay = JoiningIdempotencyStore.join(this.asyncStore.begin(notKept, "fp", token(), LONG));
		assertThat(replay.outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(replay.stored()).isNull();
	}

	@Test
	void staleHolderOfEitherStoreIsRefusedByTheOther() throws Exception {
		String scope = scopeHash();
		String stale = token();
		this.blockingStore.begin(scope, "fp", stale, SHORT_LEASE);
		await("the stale lease to run out").atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> this.blockingStore.find(scope).isEmpty());
		String current = token();
		assertThat(JoiningIdempotencyStore.join(this.asyncStore.begin(scope, "fp", current, LONG)).outcome())
			.isEqualTo(Outcome.ACQUIRED);
		assertThat(this.blockingStore.complete(scope, stale, new StoredOutcome(StoredOutcome.Kind.RESPONSE,
				new byte[] { 1 }), LONG)).isFalse();
		assertThat(JoiningIdempotencyStore.join(this.asyncStore.complete(scope, stale, binaryOutcome(), LONG)))
			.isFalse();
		assertThat(this.blockingStore.complete(scope, current, binaryOutcome(), LONG)).isTrue();
		assertThat(JoiningIdempotencyStore.join(this.asyncStore.begin(scope, "fp", token(), LONG)).stored())
			.isEqualTo(binaryOutcome());
	}

}
