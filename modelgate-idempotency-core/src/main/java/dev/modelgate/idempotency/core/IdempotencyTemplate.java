package dev.modelgate.idempotency.core;

import java.time.Duration;
import java.util.Objects;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.modelgate.idempotency.core.IdempotencyCoordinator.Attempt;

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

	/** A template with {@link Defaults#standard()}. */
	public IdempotencyTemplate(IdempotencyCoordinator coordinator) {
		this(coordinator, Defaults.standard());
	}

	public IdempotencyTemplate(IdempotencyCoordinator coordinator, Defaults defaults) {
		this.coordinator = Objects.requireNonNull(coordinator, "coordinator must not be null");
		this.defaults = Objects.requireNonNull(defaults, "defaults must not be null");
	}

	public Defaults getDefaults() {
		return this.defaults;
	}

	/**
	 * Runs {@code work} under {@code key} in {@code operation}'s key space, with the defaults and no
	 * fingerprint; see {@link #execute(IdempotentCall, IdempotentWork)}.
	 */
	public <T, E extends Throwable> T execute(String operation, String key, ResultCodec<T> codec,
			IdempotentWork<T, E> work) throws E {
		return execute(IdempotentCall.of(operation, key, codec), work);
	}

	/**
	 * Runs {@code work} at most once for the call's key, or returns what its first run recorded.
	 * @return the work's result, or the recorded one
	 * @throws E what the work threw, unchanged
	 * @throws IdempotencyKeyReusedException when the key was used with another fingerprint
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
		long deadline = System.nanoTime() + settings.waitTimeout().toNanos();
		for (int round = 0; round < MAX_ROUNDS; round++) {
			String scope = call.scope(round);
			Duration wait = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
			Attempt attempt = this.coordinator.begin(scope, fingerprint, settings.leaseTtl(), wait);
			switch (attempt.outcome()) {
				case ACQUIRED:
					return new Execution<>(call, settings, attempt.lease(), round > 0).run(work);
				case MISMATCH:
					throw new IdempotencyKeyReusedException(call.operation(), scope);
				case IN_PROGRESS:
					throw new IdempotencyInProgressException(call.operation(), scope);
				case COMPLETED:
					StoredResponse stored = attempt.result().response();
					if (stored == null) {
						throw new IdempotencyResultUnavailableException(call.operation(), scope);
					}
					OperationRecord record = OperationRecord.read(stored, scope);
					if (record.kind() != OperationRecord.Kind.UNKNOWN) {
						return replay(call, scope, record);
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
				(call.failurePolicy() != null) ? call.failurePolicy() : this.defaults.failurePolicy());
	}

	private static <T> T replay(IdempotentCall<T> call, String scope, OperationRecord record) {
		return switch (record.kind()) {
			case VALUE -> decode(call, scope, record.body());
			case FAILURE -> throw new RecordedFailureException(record.failureType(), record.failureMessage());
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
	 */
	public record Defaults(Duration ttl, Duration leaseTtl, Duration waitTimeout, FailurePolicy failurePolicy) {

		public Defaults {
			Objects.requireNonNull(ttl, "ttl must not be null");
			Objects.requireNonNull(leaseTtl, "leaseTtl must not be null");
			Objects.requireNonNull(waitTimeout, "waitTimeout must not be null");
			Objects.requireNonNull(failurePolicy, "failurePolicy must not be null");
		}

		/** 24 hours' retention, a 30 second lease, no waiting, {@link FailurePolicy#standard()}. */
		public static Defaults standard() {
			return new Defaults(Duration.ofHours(24), Duration.ofSeconds(30), Duration.ZERO, FailurePolicy.standard());
		}

	}

	private record Settings(Duration ttl, Duration leaseTtl, Duration waitTimeout, FailurePolicy failurePolicy) {
	}

	/** One run of the work (or of its reconciliation) under a held lease, up to the record. */
	private static final class Execution<T> {

		private final IdempotentCall<T> call;

		private final Settings settings;

		private final Lease lease;

		private final boolean settlesUnknownOutcome;

		Execution(IdempotentCall<T> call, Settings settings, Lease lease, boolean settlesUnknownOutcome) {
			this.call = call;
			this.settings = settings;
			this.lease = lease;
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

		private void complete(StoredResponse record) {
			try {
				if (!this.lease.complete(record, this.settings.ttl())) {
					logger.warn("Idempotency lease for scope " + this.lease.scope()
							+ " was lost before completion (another attempt took over); the outcome is not recorded");
				}
			}
			catch (IdempotencyStoreException ex) {
				logger.warn("Could not record the outcome for idempotency scope " + this.lease.scope()
						+ "; the lease will run out on its own: " + ex.getMessage());
			}
		}

		private void release() {
			try {
				this.lease.release();
			}
			catch (IdempotencyStoreException ex) {
				logger.warn("Could not release idempotency scope " + this.lease.scope()
						+ "; the lease will run out on its own: " + ex.getMessage());
			}
		}

	}

}
