package dev.modelgate.idempotency.core;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.modelgate.idempotency.core.IdempotencyCoordinator.Attempt;
import dev.modelgate.idempotency.core.internal.DecisionReporter;
import dev.modelgate.idempotency.core.internal.BlockingSettlement;
import dev.modelgate.idempotency.core.internal.SpentMarkers;

/**
 * Runs a piece of work under an idempotency key with the state machine the web filter applies to
 * requests, for work that is not an HTTP request: an agent's tool call, a message handler that sees
 * duplicate deliveries, a scheduled job.
 *
 * <p>{@link #execute} begins an attempt on the call's scope and then:
 * <ul>
 * <li>no record: runs the work while a heartbeat renews the lease, with the attempt bound to the
 * thread (so the JDBC store marks it applied in the work's transactions), and records the result
 * through the call's {@link ResultCodec}; a failure is released, recorded or marked unknown as the
 * {@link FailurePolicy} says, and thrown on unchanged;</li>
 * <li>recorded: returns the recorded result without running the work (or throws
 * {@link RecordedFailureException} for a recorded failure, {@link IdempotencyResultUnavailableException}
 * when the result was not kept);</li>
 * <li>recorded, its result expired, the key still spent (the call's or the defaults' spent-key
 * retention): {@link IdempotencyKeySpentException}, and the work does not run;</li>
 * <li>same key, other fingerprint: {@link IdempotencyKeyReusedException};</li>
 * <li>running elsewhere: {@link IdempotencyInProgressException}, at once or after the call's wait
 * timeout;</li>
 * <li>the store cannot be asked: {@link IdempotencyStoreException}, and the work does not run.</li>
 * </ul>
 *
 * <h2>Unknown outcomes</h2>
 * Work that may have taken effect without knowing it (a timeout after the request was sent) throws
 * {@link OutcomeUnknownException}, or an exception the policy maps to unknown. The attempt is then
 * completed with an "unknown" record, in one store call, so the key is never free for a blind re-run.
 * A retry that finds it moves to the next round: the scope of the call plus a round number, begun
 * like any scope, so exactly one retry at a time holds it. The holder asks the call's
 * {@link Reconciler}: found, its result is recorded in that round and returned; not found, the work
 * runs in that round. If that round ends unknown too, the next retry moves to the round after it.
 * Without a reconciler, or when the reconciler fails, the retry gets {@link OutcomeUnknownException}
 * and the work does not run. A completed record is final in every store, which is why each round has
 * a scope of its own instead of the unknown record being overwritten.
 *
 * <h2>What the caller sees when the store fails after the work</h2>
 * As with the web filter, the work's outcome wins: if the result cannot be recorded (store down,
 * lease lost to another attempt) the caller still gets it, a WARN names the hashed scope, and the
 * lease runs out on its own. A result the codec cannot encode is recorded as "done, result not kept",
 * so retries get {@link IdempotencyResultUnavailableException} instead of running the work again.
 */
public class IdempotencyTemplate {

	/**
	 * How many unknown outcomes in a row one key may go through. Each is a round that ran the work and
	 * could not tell whether it took effect; past this many, something is wrong downstream and a person
	 * should look, so retries get {@link OutcomeUnknownException}.
	 */
	public static final int MAX_ROUNDS = 16;

	private static final Logger logger = LoggerFactory.getLogger(IdempotencyTemplate.class);

	private final IdempotencyCoordinator coordinator;

	private final Defaults defaults;

	private final DecisionReporter reporter;

	/**
	 * A template with {@link Defaults#standard()} and no listeners.
	 * @param coordinator begins attempts on the store and keeps their leases
	 */
	public IdempotencyTemplate(IdempotencyCoordinator coordinator) {
		this(coordinator, Defaults.standard());
	}

	/**
	 * A template with no listeners.
	 * @param coordinator begins attempts on the store and keeps their leases
	 * @param defaults for calls that do not say otherwise
	 */
	public IdempotencyTemplate(IdempotencyCoordinator coordinator, Defaults defaults) {
		this(coordinator, defaults, List.of());
	}

	/**
	 * A template that reports its decisions.
	 * @param coordinator begins attempts on the store and keeps their leases
	 * @param defaults for calls that do not say otherwise
	 * @param listeners told of every decision, as the web filter tells them: the method of those
	 * decisions is {@link IdempotentCall#reportedMethod()} ({@link IdempotencyDecision#OPERATION} unless
	 * the call says otherwise), their route the operation's name
	 */
	public IdempotencyTemplate(IdempotencyCoordinator coordinator, Defaults defaults,
			List<? extends IdempotencyListener> listeners) {
		this.coordinator = Objects.requireNonNull(coordinator, "coordinator must not be null");
		this.defaults = Objects.requireNonNull(defaults, "defaults must not be null");
		this.reporter = DecisionReporter.of(listeners);
	}

	/** @return the defaults for calls that do not say otherwise */
	public Defaults getDefaults() {
		return this.defaults;
	}

	/**
	 * Runs {@code work} under {@code key} in {@code operation}'s key space, with the defaults and no
	 * fingerprint; see {@link #execute(IdempotentCall, IdempotentWork)}.
	 * @param operation the key space, for example {@code "mail.send"}
	 * @param key the idempotency key, the same on every retry
	 * @param codec keeps the result for replay
	 * @param work what runs at most once
	 * @param <T> the type of the work's result
	 * @param <E> what the work may throw
	 * @return the work's result, or the recorded one
	 * @throws E what the work threw, unchanged
	 */
	public <T, E extends Throwable> T execute(String operation, String key, ResultCodec<T> codec,
			IdempotentWork<T, E> work) throws E {
		return execute(IdempotentCall.of(operation, key, codec), work);
	}

	/**
	 * Runs {@code work} at most once for the call's key, or returns what its first run recorded.
	 * @param call the operation, key, codec and settings
	 * @param work what runs at most once
	 * @param <T> the type of the work's result
	 * @param <E> what the work may throw
	 * @return the work's result, or the recorded one
	 * @throws E what the work threw, unchanged
	 * @throws IdempotencyKeyReusedException when the key was used with another fingerprint
	 * @throws IdempotencyKeySpentException when the work ran, its result expired and the key is still spent
	 * @throws IdempotencyInProgressException when the same call runs elsewhere
	 * @throws RecordedFailureException when the first run's failure was recorded
	 * @throws IdempotencyResultUnavailableException when the work ran but its result is not available
	 * @throws OutcomeUnknownException when an earlier run's outcome is unknown and cannot be reconciled
	 * @throws IdempotencyStoreException when the store cannot be asked before the work runs
	 */
	public <T, E extends Throwable> T execute(IdempotentCall<T> call, IdempotentWork<T, E> work) throws E {
		Objects.requireNonNull(work, "work must not be null");
		Settings settings = settings(call);
		String fingerprint = call.fingerprintHash();
		long started = System.nanoTime();
		long deadline = started + settings.waitTimeout().toNanos();
		for (int round = 0; round < MAX_ROUNDS; round++) {
			String scope = call.scope(round);
			Duration wait = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
			Attempt attempt;
			try {
				attempt = this.coordinator.begin(scope, fingerprint, settings.leaseTtl(), wait);
			}
			catch (IdempotencyStoreException ex) {
				decide(IdempotencyOutcome.STORE_UNAVAILABLE, call, scope);
				throw ex;
			}
			if (attempt.waited()) {
				decide(IdempotencyOutcome.WAITED, call, scope);
			}
			switch (attempt.outcome()) {
				case ACQUIRED:
					decide(IdempotencyOutcome.ACQUIRED, call, scope);
					BlockingSettlement settlement = new BlockingSettlement(attempt.lease(), this.reporter, call.reportedMethod(),
							call.operation(), settings.ttl(), SpentMarkers.ofKind(settings.spentKeyRetention(),
									(outcome) -> null));
					try {
						return new Execution<>(call, settings, attempt.lease(), settlement, round > 0).run(work);
					}
					finally {
						responded(IdempotencyListener.ResponseKind.FIRST, call, started);
					}
				case MISMATCH:
					decide(IdempotencyOutcome.MISMATCH, call, scope);
					throw new IdempotencyKeyReusedException(call.operation(), scope);
				case IN_PROGRESS:
					decide(IdempotencyOutcome.IN_PROGRESS, call, scope);
					throw new IdempotencyInProgressException(call.operation(), scope);
				case SPENT:
					decide(IdempotencyOutcome.SPENT, call, scope);
					throw new IdempotencyKeySpentException(call.operation(), scope, attempt.result().spent());
				case COMPLETED:
					StoredOutcome stored = attempt.result().stored();
					if (stored == null) {
						decide(IdempotencyOutcome.RESULT_UNAVAILABLE, call, scope);
						throw new IdempotencyResultUnavailableException(call.operation(), scope);
					}
					if (OperationRecord.read(stored, scope).kind() != StoredOutcome.Kind.UNKNOWN) {
						decide(IdempotencyOutcome.REPLAYED, call, scope);
						T replayed = replay(call, scope, stored);
						responded(IdempotencyListener.ResponseKind.REPLAY, call, started);
						return replayed;
					}
					if (call.reconciler() == null) {
						throw new OutcomeUnknownException("Operation '" + call.operation()
								+ "' may have taken effect under this key (scope " + scope
								+ "), and there is no reconciler to find out; it does not run again");
					}
					// Unknown, and a reconciler to settle it: the next round decides.
			}
		}
		throw new OutcomeUnknownException("Operation '" + call.operation() + "' ended with an unknown outcome "
				+ MAX_ROUNDS + " times under this key (scope " + call.scope(0) + "); it does not run again");
	}

	private Settings settings(IdempotentCall<?> call) {
		return new Settings((call.ttl() != null) ? call.ttl() : this.defaults.ttl(),
				(call.leaseTtl() != null) ? call.leaseTtl() : this.defaults.leaseTtl(),
				(call.waitTimeout() != null) ? call.waitTimeout() : this.defaults.waitTimeout(),
				(call.failurePolicy() != null) ? call.failurePolicy() : this.defaults.failurePolicy(),
				(call.spentKeyRetention() != null) ? call.spentKeyRetention() : this.defaults.spentKeyRetention());
	}

	private void decide(IdempotencyOutcome outcome, IdempotentCall<?> call, String scope) {
		this.reporter.decide(outcome, call.reportedMethod(), call.operation(), scope);
	}

	private void responded(IdempotencyListener.ResponseKind kind, IdempotentCall<?> call, long started) {
		this.reporter.responded(kind, call.reportedMethod(), call.operation(),
				Duration.ofNanos(System.nanoTime() - started));
	}

	private static <T> @Nullable T replay(IdempotentCall<T> call, String scope, StoredOutcome stored) {
		return switch (stored.kind()) {
			case VALUE -> decode(call, scope, stored.payload());
			case FAILURE -> throw new RecordedFailureException(OperationRecord.failureType(stored),
					OperationRecord.failureMessage(stored));
			default -> null;
		};
	}

	private static <T> T decode(IdempotentCall<T> call, String scope, byte[] body) {
		try {
			return call.codec().decode(body);
		}
		catch (RuntimeException ex) {
			throw new IdempotencyResultUnavailableException(call.operation(), scope, ex);
		}
	}

	@SuppressWarnings("unchecked")
	private static <E extends Throwable> E sneaky(Throwable failure) {
		// The work declares E; anything else it can throw is unchecked, so this cast cannot lie.
		return (E) failure;
	}

	/**
	 * Defaults for calls that do not say otherwise.
	 *
	 * @param ttl how long an outcome is kept for replay
	 * @param leaseTtl how long an attempt holds its key without a heartbeat
	 * @param waitTimeout how long to wait for a running duplicate; zero answers at once
	 * @param failurePolicy which failures are retryable, recorded or unknown
	 * @param spentKeyRetention how long, after {@code ttl}, a retry is still refused with
	 * {@link IdempotencyKeySpentException}; zero for none
	 */
	public record Defaults(Duration ttl, Duration leaseTtl, Duration waitTimeout, FailurePolicy failurePolicy,
			Duration spentKeyRetention) {

		/**
		 * Defaults without spent keys.
		 * @param ttl how long an outcome is kept for replay
		 * @param leaseTtl how long an attempt holds its key without a heartbeat
		 * @param waitTimeout how long to wait for a running duplicate; zero answers at once
		 * @param failurePolicy which failures are retryable, recorded or unknown
		 */
		public Defaults(Duration ttl, Duration leaseTtl, Duration waitTimeout, FailurePolicy failurePolicy) {
			this(ttl, leaseTtl, waitTimeout, failurePolicy, Duration.ZERO);
		}

		public Defaults {
			Objects.requireNonNull(spentKeyRetention, "spentKeyRetention must not be null");
			Objects.requireNonNull(ttl, "ttl must not be null");
			Objects.requireNonNull(leaseTtl, "leaseTtl must not be null");
			Objects.requireNonNull(waitTimeout, "waitTimeout must not be null");
			Objects.requireNonNull(failurePolicy, "failurePolicy must not be null");
		}

		/** @return 24 hours' retention, a 30 second lease, no waiting, {@link FailurePolicy#standard()} */
		public static Defaults standard() {
			return new Defaults(Duration.ofHours(24), Duration.ofSeconds(30), Duration.ZERO, FailurePolicy.standard());
		}

	}

	private record Settings(Duration ttl, Duration leaseTtl, Duration waitTimeout, FailurePolicy failurePolicy,
			Duration spentKeyRetention) {
	}

	/** One run of the work (or of its reconciliation) under a held lease, up to the record. */
	private static final class Execution<T> {

		private final IdempotentCall<T> call;

		private final Settings settings;

		private final Lease lease;

		private final BlockingSettlement settlement;

		private final boolean settlesUnknownOutcome;

		Execution(IdempotentCall<T> call, Settings settings, Lease lease, BlockingSettlement settlement,
				boolean settlesUnknownOutcome) {
			this.call = call;
			this.settings = settings;
			this.lease = lease;
			this.settlement = settlement;
			this.settlesUnknownOutcome = settlesUnknownOutcome;
		}

		<E extends Throwable> T run(IdempotentWork<T, E> work) throws E {
			if (this.settlesUnknownOutcome) {
				Reconciliation<T> found = reconcile();
				if (found.isFound()) {
					return record(found.value());
				}
			}
			T value;
			try (IdempotencyContext.Binding binding = this.lease.bindToCurrentThread()) {
				value = work.run();
			}
			catch (Throwable failure) {
				settle(failure);
				throw IdempotencyTemplate.<E>sneaky(failure);
			}
			return record(value);
		}

		private Reconciliation<T> reconcile() {
			Reconciliation<T> found;
			try {
				found = this.call.reconciler().reconcile();
			}
			catch (Throwable failure) {
				release();
				if (failure instanceof Error error) {
					throw error;
				}
				throw new OutcomeUnknownException("Operation '" + this.call.operation()
						+ "' may have taken effect under this key (scope " + this.lease.scope()
						+ "), and its reconciler could not find out; it does not run again", failure);
			}
			if (found == null) {
				release();
				throw new IllegalStateException("The reconciler of operation '" + this.call.operation()
						+ "' returned null instead of a Reconciliation");
			}
			return found;
		}

		private void settle(Throwable failure) {
			switch (this.settings.failurePolicy().classify(failure)) {
				case RELEASE -> release();
				case RECORD -> complete(OperationRecord.failure(failure));
				case UNKNOWN -> complete(OperationRecord.unknown());
			}
		}

		private T record(T value) {
			if (value == null) {
				complete(OperationRecord.nullValue());
				return null;
			}
			byte[] encoded;
			try {
				encoded = this.call.codec().encode(value);
			}
			catch (RuntimeException ex) {
				logger.warn("The result of operation '" + this.call.operation() + "' (scope " + this.lease.scope()
						+ ") could not be encoded; it is returned but not kept, and retries will be told so", ex);
				complete(null);
				return value;
			}
			complete(OperationRecord.value(encoded));
			return value;
		}

		private void complete(@Nullable StoredOutcome outcome) {
			this.settlement.record(outcome);
		}

		private void release() {
			this.settlement.release(null);
		}

	}

}
