package dev.modelgate.idempotency.core;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of one attempt that holds its key: records its outcome or releases the key, and reports
 * which it was. The web filters and {@link IdempotencyTemplate} end every attempt through it, so
 * both take the same decisions, log the same warnings and tell the listeners the same things.
 *
 * <p>The work's outcome always wins over the store: when recording fails (the store is down, or the
 * lease was lost to another attempt) a WARN names the hashed scope, the lease runs out on its own,
 * and the caller goes on to deliver what the work produced.
 */
public final class Settlement {

	private static final Logger logger = LoggerFactory.getLogger(Settlement.class);

	private final Lease lease;

	private final DecisionReporter reporter;

	private final String method;

	private final String route;

	private final Duration ttl;

	/**
	 * @param lease the held lease
	 * @param reporter where decisions go
	 * @param method as in {@link IdempotencyDecision#method()}
	 * @param route as in {@link IdempotencyDecision#route()}
	 * @param ttl how long a recorded outcome is kept
	 */
	public Settlement(Lease lease, DecisionReporter reporter, String method, String route, Duration ttl) {
		this.lease = lease;
		this.reporter = reporter;
		this.method = method;
		this.route = route;
		this.ttl = ttl;
	}

	/** {@return the hashed scope of the attempt} */
	public String scope() {
		return this.lease.scope();
	}

	/**
	 * Records the outcome for replay, or, with {@code null}, that the work ran but its result is not
	 * kept (retries are told so instead of running it again).
	 * @param outcome the outcome, or {@code null}
	 * @return whether it was recorded
	 */
	public boolean record(@Nullable StoredOutcome outcome) {
		try {
			if (this.lease.complete(outcome, this.ttl)) {
				decide(IdempotencyOutcome.RECORDED);
				return true;
			}
			logger.warn("Idempotency lease for scope {} was lost before completion (another attempt took over); "
					+ "the outcome is not recorded", scope());
			decide(IdempotencyOutcome.LEASE_LOST);
		}
		catch (IdempotencyStoreException ex) {
			logger.warn("Could not record the outcome for idempotency scope {}; the lease will run out on its own: {}",
					scope(), ex.describe());
			decide(IdempotencyOutcome.COMPLETE_FAILED);
		}
		return false;
	}

	/**
	 * Ends the attempt's stream normally, so that retries replay it (see
	 * {@link IdempotencyStore#completeStream}).
	 * @return whether it was recorded
	 */
	public boolean recordStream() {
		try {
			if (this.lease.completeStream(this.ttl)) {
				decide(IdempotencyOutcome.STREAM_RECORDED);
				return true;
			}
			logger.warn("Idempotency lease for scope {} was lost before its stream ended (another attempt took "
					+ "over); the stream is not recorded", scope());
			decide(IdempotencyOutcome.LEASE_LOST);
		}
		catch (IdempotencyStoreException ex) {
			logger.warn("Could not complete the stream of idempotency scope {}; the lease will run out on its own: {}",
					scope(), ex.describe());
			decide(IdempotencyOutcome.COMPLETE_FAILED);
		}
		return false;
	}

	/**
	 * Stops renewing the lease without touching the record, which then runs out on its own: for an
	 * attempt whose outcome can no longer be written (the store failed in the middle of a stream).
	 * @param warning why, logged as a WARN
	 */
	public void abandon(String warning) {
		logger.warn("Idempotency scope {} abandoned, its lease will run out: {}", scope(), warning);
		this.lease.abandon();
	}

	/**
	 * Deletes the record so that a retry runs again.
	 * @param warning why, when it deserves a WARN (the handler threw, the response was streamed), or
	 * {@code null} for an ordinary release (a status that says "try again")
	 */
	public void release(@Nullable String warning) {
		if (warning != null) {
			logger.warn("Idempotency scope {} released: {}", scope(), warning);
		}
		try {
			decide(this.lease.release() ? IdempotencyOutcome.RELEASED : IdempotencyOutcome.LEASE_LOST);
		}
		catch (IdempotencyStoreException ex) {
			logger.warn("Could not release idempotency scope {}; the lease will run out on its own: {}", scope(),
					ex.describe());
			decide(IdempotencyOutcome.RELEASE_FAILED);
		}
	}

	private void decide(IdempotencyOutcome outcome) {
		this.reporter.decide(outcome, this.method, this.route, scope());
	}

}
