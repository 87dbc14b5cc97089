package dev.modelgate.idempotency.core.internal;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.IdempotencyDecision;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.Lease;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * The end of one attempt that holds its key: records its outcome or releases the key, and reports
 * which it was. The web filters and {@link IdempotencyTemplate} end every attempt through it, so
 * both take the same decisions, log the same warnings and tell the listeners the same things
 * ({@link AsyncSettlement} too: both report through {@code SettlementReports}).
 *
 * <p>The work's outcome always wins over the store: when recording fails (the store is down, or the
 * lease was lost to another attempt) a WARN names the hashed scope, the lease runs out on its own,
 * and the caller goes on to deliver what the work produced.
 */
public final class BlockingSettlement extends Settlement<Lease> {

	/**
	 * @param lease the held lease
	 * @param reporter where decisions go
	 * @param method as in {@link IdempotencyDecision#method()}
	 * @param route as in {@link IdempotencyDecision#route()}
	 * @param ttl how long a recorded outcome is kept
	 * @param spentMarkers what a recorded outcome leaves behind after {@code ttl}
	 */
	public BlockingSettlement(Lease lease, DecisionReporter reporter, String method, String route, Duration ttl,
			SpentMarkers spentMarkers) {
		super(lease, lease.scope(), reporter, method, route, ttl, spentMarkers);
	}

	/**
	 * Records the outcome for replay, or, with {@code null}, that the work ran but its result is not
	 * kept (retries are told so instead of running it again).
	 * @param outcome the outcome, or {@code null}
	 * @return whether it was recorded
	 */
	public boolean record(@Nullable StoredOutcome outcome) {
		try {
			return this.reports.recorded(this.lease.complete(outcome, this.ttl, this.spentMarkers.markerFor(outcome)), null);
		}
		catch (IdempotencyStoreException ex) {
			return this.reports.recorded(null, ex);
		}
	}

	/**
	 * Ends the attempt's stream normally, so that retries replay it (see
	 * {@link IdempotencyStore#completeStream}).
	 * @return whether it was recorded
	 */
	public boolean recordStream() {
		try {
			return this.reports.streamRecorded(this.lease.completeStream(this.ttl), null);
		}
		catch (IdempotencyStoreException ex) {
			return this.reports.streamRecorded(null, ex);
		}
	}

	/**
	 * Stops renewing the lease without touching the record, which then runs out on its own: for an
	 * attempt whose outcome can no longer be written (the store failed in the middle of a stream).
	 * @param warning why, logged as a WARN
	 */
	public void abandon(String warning) {
		this.reports.abandoned(warning);
		this.lease.abandon();
	}

	/**
	 * Deletes the record so that a retry runs again.
	 * @param warning why, when it deserves a WARN (the handler threw, the response was streamed), or
	 * {@code null} for an ordinary release (a status that says "try again")
	 */
	public void release(@Nullable String warning) {
		this.reports.releasing(warning);
		try {
			this.reports.released(this.lease.release(), null);
		}
		catch (IdempotencyStoreException ex) {
			this.reports.released(null, ex);
		}
	}

}
