package dev.modelgate.idempotency.test;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.modelgate.idempotency.core.FailurePolicy;
import dev.modelgate.idempotency.core.IdempotencyContext;
import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyInProgressException;
import dev.modelgate.idempotency.core.IdempotencyKeyReusedException;
import dev.modelgate.idempotency.core.IdempotencyKeySpentException;
import dev.modelgate.idempotency.core.IdempotencyResultUnavailableException;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.IdempotentCall;
import dev.modelgate.idempotency.core.OutcomeUnknownException;
import dev.modelgate.idempotency.core.Reconciliation;
import dev.modelgate.idempotency.core.RecordedFailureException;
import dev.modelgate.idempotency.core.ResultCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * What {@link IdempotencyTemplate} promises, run on each store on a real server: the same state
 * machine as the web filter, for work that is not an HTTP request. Subclasses only say how to build
 * the store. Each test counts how many times the work (and the reconciler) really ran.
 */
public abstract class IdempotencyTemplateContractTests {

	private static final Duration SHORT_LEASE = Duration.ofMillis(300);

	private IdempotencyCoordinator coordinator;

	private IdempotencyTemplate template;

	private String key;

	private final AtomicInteger runs = new AtomicInteger();

	private final AtomicInteger reconciliations = new AtomicInteger();

	/** {@return a store on an empty key space, called before each test} */
	protected abstract IdempotencyStore createStore();

	@BeforeEach
	void createTemplate() {
		this.coordinator = IdempotencyCoordinator.create(createStore(), Duration.ofSeconds(5));
		this.template = new IdempotencyTemplate(this.coordinator);
		this.key = UUID.randomUUID().toString();
	}

	@AfterEach
	void closeCoordinator() {
		this.coordinator.close();
	}

	@Test
	void runsWorkOnceAndReplaysItsRecordedResult() {
		String first = this.template.execute(call(), () -> count("sent-1"));
		String retry = this.template.execute(call(), () -> count("sent-2"));

		assertThat(first).isEqualTo("sent-1");
		assertThat(retry).isEqualTo("sent-1");
		assertThat(this.runs).hasValue(1);
	}

	@Test
	void callAfterTheResultExpiredIsToldTheKeyIsSpentWithoutRunningThenRunsAfterTheRetention() {
		IdempotentCall<String> call = call().withTtl(Duration.ofMillis(300))
			.withSpentKeyRetention(Duration.ofSeconds(2));
		assertThat(this.template.execute(call, () -> count("sent-1"))).isEqualTo("sent-1");
		IdempotencyKeySpentException spent = await("the result to expire").atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> {
				try {
					assertThat(this.template.execute(call, () -> count("sent-again"))).isEqualTo("sent-1");
					return null;
				}
				catch (IdempotencyKeySpentException ex) {
					return ex;
				}
			}, (ex) -> ex != null);
		assertThat(spent.getStatus()).isEqualTo("value");
		assertThat(spent.getCompletedAt()).isBefore(java.time.Instant.now().plusSeconds(5));
		assertThat(this.runs).hasValue(1);
		assertThatExceptionOfType(IdempotencyKeyReusedException.class)
			.isThrownBy(() -> this.template.execute(call.withFingerprint("another"), () -> count("other")));
		String rerun = await("the retention to end").atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.ignoreException(IdempotencyKeySpentException.class)
			.until(() -> this.template.execute(call, () -> count("sent-2")), (result) -> result != null);
		assertThat(rerun).isEqualTo("sent-2");
		assertThat(this.runs).hasValue(2);
	}

	@Test
	void withoutSpentKeyRetentionTheKeyRunsAgainOnceTheResultExpired() {
		IdempotentCall<String> call = call().withTtl(Duration.ofMillis(300));
		this.template.execute(call, () -> count("sent-1"));
		String rerun = await("the result to expire").atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> this.template.execute(call, () -> count("sent-2")), "sent-2"::equals);
		assertThat(rerun).isEqualTo("sent-2");
		assertThat(this.runs).hasValue(2);
	}

	@Test
	void replaysRecordedResultToAnotherTemplateOnTheSameStore() {
		IdempotencyStore store = createStore();
		try (IdempotencyCoordinator one = IdempotencyCoordinator.create(store, Duration.ofSeconds(5));
				IdempotencyCoordinator other = IdempotencyCoordinator.create(store, Duration.ofSeconds(5))) {
			new IdempotencyTemplate(one).execute(call(), () -> count("from one"));
			String replay = new IdempotencyTemplate(other).execute(call(), () -> count("from other"));

			assertThat(replay).isEqualTo("from one");
			assertThat(this.runs).hasValue(1);
		}
	}

	@Test
	void replaysEncodedResultAsAnEqualObject() {
		IdempotentCall<Ticket> call = IdempotentCall.of("tickets.create", this.key, Ticket.CODEC);
		Ticket first = this.template.execute(call, () -> count(new Ticket("T-1", List.of("urgent", "mail"))));
		Ticket retry = this.template.execute(call, () -> count(new Ticket("T-2", List.of())));

		assertThat(retry).isEqualTo(first).isNotSameAs(first);
		assertThat(this.runs).hasValue(1);
	}

	@Test
	void replaysNullResultOfWorkWithoutOne() {
		IdempotentCall<Void> call = IdempotentCall.of("audit.write", this.key, ResultCodec.none());
		this.template.execute(call, () -> count(null));
		Void retry = this.template.execute(call, () -> count(null));

		assertThat(retry).isNull();
		assertThat(this.runs).hasValue(1);
	}

	@Test
	void refusesKeyReusedWithAnotherFingerprintWithoutRunningWork() {
		this.template.execute(call().withFingerprint("to=alice"), () -> count("sent"));

		assertThatExceptionOfType(IdempotencyKeyReusedException.class)
			.isThrownBy(() -> this.template.execute(call().withFingerprint("to=bob"), () -> count("sent again")))
			.satisfies((ex) -> assertThat(ex.getMessage()).doesNotContain(this.key));
		assertThat(this.runs).hasValue(1);
	}

	@Test
	void sameKeyInAnotherOperationIsAnotherCall() {
		String mail = this.template.execute(IdempotentCall.of("mail.send", this.key, ResultCodec.utf8()),
				() -> count("mail"));
		String ticket = this.template.execute(IdempotentCall.of("tickets.create", this.key, ResultCodec.utf8()),
				() -> count("ticket"));

		assertThat(mail).isEqualTo("mail");
		assertThat(ticket).isEqualTo("ticket");
		assertThat(this.runs).hasValue(2);
	}

	@Test
	void concurrentDuplicatesRunWorkOnceAndTheOthersAreToldItIsInProgress() throws Exception {
		int threads = 8;
		CountDownLatch start = new CountDownLatch(1);
		CountDownLatch othersAnswered = new CountDownLatch(threads - 1);
		AtomicInteger inProgress = new AtomicInteger();
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<String>> results = new ArrayList<>();
			for (int i = 0; i < threads; i++) {
				results.add(executor.submit(() -> {
					start.await();
					try {
						return this.template.execute(call(), () -> {
							count("once");
							// Hold the key until every duplicate has been answered.
							othersAnswered.await(10, TimeUnit.SECONDS);
							return "once";
						});
					}
					catch (IdempotencyInProgressException ex) {
						inProgress.incrementAndGet();
						othersAnswered.countDown();
						return null;
					}
				}));
			}
			start.countDown();
			List<String> values = new ArrayList<>();
			for (Future<String> result : results) {
				values.add(result.get(30, TimeUnit.SECONDS));
			}
			assertThat(this.runs).hasValue(1);
			assertThat(inProgress).hasValue(threads - 1);
			assertThat(values).containsOnlyOnce("once");
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void waitingDuplicateGetsTheResultOfTheRunningAttempt() throws Exception {
		CountDownLatch running = new CountDownLatch(1);
		CountDownLatch finish = new CountDownLatch(1);
		ExecutorService executor = Executors.newSingleThreadExecutor();
		try {
			Future<String> first = executor.submit(() -> this.template.execute(call(), () -> {
				count("first");
				running.countDown();
				finish.await(10, TimeUnit.SECONDS);
				return "first";
			}));
			assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
			AtomicReference<String> waited = new AtomicReference<>();
			Thread duplicate = new Thread(() -> waited.set(this.template
				.execute(call().withWaitTimeout(Duration.ofSeconds(10)), () -> count("duplicate"))));
			duplicate.start();
			// The duplicate waits between its looks at the store: the running attempt is what it found.
			await("the duplicate to wait").atMost(Duration.ofSeconds(10))
				.until(() -> duplicate.getState() == Thread.State.TIMED_WAITING);
			finish.countDown();
			duplicate.join(10_000);

			assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("first");
			assertThat(waited).hasValue("first");
			assertThat(this.runs).hasValue(1);
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void heartbeatKeepsTheKeyWhileLongWorkRuns() throws Exception {
		IdempotentCall<String> call = call().withLeaseTtl(SHORT_LEASE);
		CountDownLatch running = new CountDownLatch(1);
		CountDownLatch finish = new CountDownLatch(1);
		ExecutorService executor = Executors.newSingleThreadExecutor();
		try {
			Future<String> first = executor.submit(() -> this.template.execute(call, () -> {
				count("long");
				running.countDown();
				finish.await(10, TimeUnit.SECONDS);
				return "long";
			}));
			assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
			// Three leases long: the heartbeat keeping the key is what this tests.
			Thread.sleep(SHORT_LEASE.toMillis() * 3);

			assertThatExceptionOfType(IdempotencyInProgressException.class)
				.isThrownBy(() -> this.template.execute(call, () -> count("duplicate")));
			finish.countDown();
			assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("long");
			assertThat(this.runs).hasValue(1);
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void retryableFailureIsThrownUnchangedAndReleasesTheKeySoARetryRunsAgain() {
		IOException refused = new IOException("connection refused");
		assertThatIOException().isThrownBy(() -> this.template.execute(call(), () -> {
			count(null);
			throw refused;
		})).isSameAs(refused);
		String retry = this.template.execute(call(), () -> count("sent"));

		assertThat(retry).isEqualTo("sent");
		assertThat(this.runs).hasValue(2);
	}

	@Test
	void failureConfiguredAsFinalIsRecordedAndReplayedWithoutRunningWork() {
		IdempotentCall<String> call = call()
			.withFailurePolicy(FailurePolicy.standard().recordOn(IllegalArgumentException.class));
		IllegalArgumentException invalid = new IllegalArgumentException("no such mailbox");
		assertThatIllegalArgumentException().isThrownBy(() -> this.template.execute(call, () -> {
			count(null);
			throw invalid;
		})).isSameAs(invalid);

		assertThatExceptionOfType(RecordedFailureException.class)
			.isThrownBy(() -> this.template.execute(call, () -> count("sent")))
			.satisfies((ex) -> {
				assertThat(ex.getFailureType()).isEqualTo(IllegalArgumentException.class.getName());
				assertThat(ex.getFailureMessage()).isEqualTo("no such mailbox");
			});
		assertThat(this.runs).hasValue(1);
	}

	@Test
	void failureWithoutMessageIsReplayedWithoutOne() {
		IdempotentCall<String> call = call().withFailurePolicy(FailurePolicy.standard().otherwise(FailurePolicy.Action.RECORD));
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> this.template.execute(call, () -> {
			throw new UnsupportedOperationException();
		}));

		assertThatExceptionOfType(RecordedFailureException.class)
			.isThrownBy(() -> this.template.execute(call, () -> count("sent")))
			.satisfies((ex) -> assertThat(ex.getFailureMessage()).isNull());
	}

	@Test
	void unknownOutcomeWithoutReconcilerIsNeverRunAgainBlindly() {
		failWithUnknownOutcome(call());

		assertThatExceptionOfType(OutcomeUnknownException.class)
			.isThrownBy(() -> this.template.execute(call(), () -> count("sent again")));
		assertThatExceptionOfType(OutcomeUnknownException.class)
			.isThrownBy(() -> this.template.execute(call(), () -> count("sent again")));
		assertThat(this.runs).hasValue(1);
	}

	@Test
	void unknownOutcomeFoundByReconcilerRecordsTheReconciledResultWithoutRunningWork() {
		IdempotentCall<String> call = call().withReconciler(() -> reconciled(Reconciliation.found("msg-1")));
		failWithUnknownOutcome(call);

		String retry = this.template.execute(call, () -> count("sent again"));
		String later = this.template.execute(call, () -> count("sent again"));

		assertThat(retry).isEqualTo("msg-1");
		assertThat(later).isEqualTo("msg-1");
		assertThat(this.runs).hasValue(1);
		assertThat(this.reconciliations).hasValue(1);
	}

	@Test
	void unknownOutcomeNotFoundByReconcilerRunsWorkOnceMore() {
		IdempotentCall<String> call = call().withReconciler(() -> reconciled(Reconciliation.notFound()));
		failWithUnknownOutcome(call);

		String retry = this.template.execute(call, () -> count("msg-2"));
		String later = this.template.execute(call, () -> count("msg-3"));

		assertThat(retry).isEqualTo("msg-2");
		assertThat(later).isEqualTo("msg-2");
		assertThat(this.runs).hasValue(2);
		assertThat(this.reconciliations).hasValue(1);
	}

	@Test
	void reconcilerThatCannotAnswerLeavesTheOutcomeUnknownForALaterRetry() {
		IllegalStateException down = new IllegalStateException("mail API down");
		failWithUnknownOutcome(call());

		assertThatExceptionOfType(OutcomeUnknownException.class)
			.isThrownBy(() -> this.template.execute(call().withReconciler(() -> {
				reconciled(null);
				throw down;
			}), () -> count("sent again")))
			.withCause(down);
		String settled = this.template.execute(call().withReconciler(() -> reconciled(Reconciliation.found("msg-1"))),
				() -> count("sent again"));

		assertThat(settled).isEqualTo("msg-1");
		assertThat(this.runs).hasValue(1);
		assertThat(this.reconciliations).hasValue(2);
	}

	@Test
	void secondUnknownOutcomeIsSettledByTheNextRetry() {
		AtomicInteger lookups = new AtomicInteger();
		IdempotentCall<String> call = call().withReconciler(() -> reconciled(
				(lookups.incrementAndGet() == 1) ? Reconciliation.notFound() : Reconciliation.found("msg-2")));
		failWithUnknownOutcome(call);
		failWithUnknownOutcome(call);

		String settled = this.template.execute(call, () -> count("sent a third time"));

		assertThat(settled).isEqualTo("msg-2");
		assertThat(this.runs).hasValue(2);
		assertThat(this.reconciliations).hasValue(2);
	}

	@Test
	void exceptionMappedToUnknownIsFoundAmongTheCauses() {
		IdempotentCall<String> call = call()
			.withFailurePolicy(FailurePolicy.standard().unknownOn(SocketTimeoutException.class));
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> this.template.execute(call, () -> {
			count(null);
			throw new IllegalStateException("mail API call failed", new SocketTimeoutException("read timed out"));
		}));

		assertThatExceptionOfType(OutcomeUnknownException.class)
			.isThrownBy(() -> this.template.execute(call, () -> count("sent again")));
		assertThat(this.runs).hasValue(1);
	}

	@Test
	void concurrentRetriesOfAnUnknownOutcomeReconcileOnce() throws Exception {
		CountDownLatch reconciling = new CountDownLatch(1);
		CountDownLatch finish = new CountDownLatch(1);
		IdempotentCall<String> call = call().withReconciler(() -> {
			reconciling.countDown();
			finish.await(10, TimeUnit.SECONDS);
			return reconciled(Reconciliation.found("msg-1"));
		});
		failWithUnknownOutcome(call);
		ExecutorService executor = Executors.newSingleThreadExecutor();
		try {
			Future<String> settling = executor.submit(() -> this.template.execute(call, () -> count("sent again")));
			assertThat(reconciling.await(10, TimeUnit.SECONDS)).isTrue();

			assertThatExceptionOfType(IdempotencyInProgressException.class)
				.isThrownBy(() -> this.template.execute(call, () -> count("sent again")));
			finish.countDown();
			assertThat(settling.get(10, TimeUnit.SECONDS)).isEqualTo("msg-1");
			assertThat(this.reconciliations).hasValue(1);
			assertThat(this.runs).hasValue(1);
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void bindsTheAttemptToTheThreadOnlyWhileWorkRuns() {
		AtomicReference<IdempotencyContext.Held> during = new AtomicReference<>();
		this.template.execute(call(), () -> {
			during.set(IdempotencyContext.current().orElse(null));
			return count("sent");
		});

		assertThat(during.get()).isNotNull();
		assertThat(during.get().scope()).matches("[0-9a-f]{64}").doesNotContain(this.key);
		assertThat(IdempotencyContext.current()).isEmpty();
	}

	@Test
	void nestedCallBindsItsOwnAttemptAndRestoresTheOuterOne() {
		AtomicReference<String> outerBefore = new AtomicReference<>();
		AtomicReference<String> inner = new AtomicReference<>();
		AtomicReference<String> outerAfter = new AtomicReference<>();
		this.template.execute(IdempotentCall.of("agent.run", this.key, ResultCodec.utf8()), () -> {
			outerBefore.set(IdempotencyContext.current().orElseThrow().scope());
			this.template.execute(call(), () -> {
				inner.set(IdempotencyContext.current().orElseThrow().scope());
				return count("tool");
			});
			outerAfter.set(IdempotencyContext.current().orElseThrow().scope());
			return "run";
		});

		assertThat(inner.get()).isNotEqualTo(outerBefore.get());
		assertThat(outerAfter.get()).isEqualTo(outerBefore.get());
	}

	@Test
	void resultThatCannotBeEncodedIsReturnedAndRetriesAreToldItIsUnavailable() {
		IdempotentCall<String> call = IdempotentCall.of("mail.send", this.key, new FailingCodec(true, false));
		String first = this.template.execute(call, () -> count("sent"));

		assertThat(first).isEqualTo("sent");
		assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
			.isThrownBy(() -> this.template.execute(call, () -> count("sent again")));
		assertThat(this.runs).hasValue(1);
	}

	@Test
	void recordedResultThatCannotBeDecodedIsUnavailableAndNotRunAgain() {
		this.template.execute(call(), () -> count("sent"));

		IdempotentCall<String> call = IdempotentCall.of("mail.send", this.key, new FailingCodec(false, true));
		assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
			.isThrownBy(() -> this.template.execute(call, () -> count("sent again")))
			.withCauseInstanceOf(IllegalStateException.class);
		assertThat(this.runs).hasValue(1);
	}

	private IdempotentCall<String> call() {
		return IdempotentCall.of("mail.send", this.key, ResultCodec.utf8());
	}

	private void failWithUnknownOutcome(IdempotentCall<String> call) {
		int before = this.runs.get();
		assertThatExceptionOfType(OutcomeUnknownException.class).isThrownBy(() -> this.template.execute(call, () -> {
			count(null);
			throw new OutcomeUnknownException("mail API timed out after the request was sent");
		}));
		assertThat(this.runs).hasValue(before + 1);
	}

	private <T> T count(T value) {
		this.runs.incrementAndGet();
		return value;
	}

	private <T> Reconciliation<T> reconciled(Reconciliation<T> answer) {
		this.reconciliations.incrementAndGet();
		return answer;
	}

	/** A result type written and read as JSON. */
	public record Ticket(String id, List<String> labels) {

		/** Writes the id and the labels one per line; enough to prove the template keeps a codec's bytes. */
		static final ResultCodec<Ticket> CODEC = new ResultCodec<>() {

			@Override
			public byte[] encode(Ticket value) {
				return String.join("\n", value.id(), String.join("\n", value.labels()))
					.getBytes(StandardCharsets.UTF_8);
			}

			@Override
			public Ticket decode(byte[] bytes) {
				List<String> lines = List.of(new String(bytes, StandardCharsets.UTF_8).split("\n", -1));
				return new Ticket(lines.get(0),
						lines.subList(1, lines.size()).stream().filter((line) -> !line.isEmpty()).toList());
			}

		};
	}

	private static final class FailingCodec implements ResultCodec<String> {

		private final boolean failEncode;

		private final boolean failDecode;

		FailingCodec(boolean failEncode, boolean failDecode) {
			this.failEncode = failEncode;
			this.failDecode = failDecode;
		}

		@Override
		public byte[] encode(String value) {
			if (this.failEncode) {
				throw new IllegalStateException("cannot encode");
			}
			return ResultCodec.utf8().encode(value);
		}

		@Override
		public String decode(byte[] bytes) {
			if (this.failDecode) {
				throw new IllegalStateException("cannot decode");
			}
			return ResultCodec.utf8().decode(bytes);
		}

	}

}
