package dev.modelgate.idempotency.core.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.AsyncLease;
import dev.modelgate.idempotency.core.IdempotencyDecision;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * The end of one asynchronous attempt that holds its key, as {@link BlockingSettlement} ends a blocking one:
 * the same decisions, warnings and reports, over an {@link AsyncLease}. An attempt is settled once:
 * the first of record, release and abandon wins and the others do nothing.
 *
 * <p>What follows a store call (the WARN, the decision) hangs on the store's future, not on whoever
 * waits for the answer: a client that goes away never cancels the recording or the release (they
 * have their own {@code operation-timeout}).
 */
public final class AsyncSettlement extends Settlement<AsyncLease> {

	private final AtomicBoolean settled = new AtomicBoolean();

	private volatile boolean streaming;

	/**
	 * @param lease the held lease
	 * @param reporter where decisions go
	 * @param method as in {@link IdempotencyDecision#method()}
	 * @param route as in {@link IdempotencyDecision#route()}
	 * @param ttl how long a recorded outcome is kept
	 */
	public AsyncSettlement(AsyncLease lease, DecisionReporter reporter, String method, String route, Duration ttl) {
		this(lease, reporter, method, route, ttl, SpentMarkers.NONE);
	}

	/**
	 * @param lease the held lease
	 * @param reporter where decisions go
	 * @param method as in {@link IdempotencyDecision#method()}
	 * @param route as in {@link IdempotencyDecision#route()}
	 * @param ttl how long a recorded outcome is kept
	 * @param spentMarkers what a recorded outcome leaves behind after {@code ttl}
	 */
	public AsyncSettlement(AsyncLease lease, DecisionReporter reporter, String method, String route, Duration ttl,
			SpentMarkers spentMarkers) {
		super(lease, lease.scope(), reporter, method, route, ttl, spentMarkers);
	}

	/** {@return whether the attempt was recorded, released or abandoned} */
	public boolean isSettled() {
		return this.settled.get();
	}

	/** The attempt's answer is a stream, which settles the attempt itself, whatever becomes of its client. */
	public void streaming() {
		this.streaming = true;
	}

	/** {@return whether the attempt's answer is a stream} */
	public boolean isStreaming() {
		return this.streaming;
	}

	/**
	 * Records the outcome for replay, or with {@code null} that the work ran and its result is not kept.
	 * @param outcome the outcome, or {@code null}
	 * @return whether it was recorded; {@code false} too when the attempt was already settled
	 */
	public CompletableFuture<Boolean> record(@Nullable StoredOutcome outcome) {
		if (!this.settled.compareAndSet(false, true)) {
			return CompletableFuture.completedFuture(false);
		}
		return ForwardingAsyncIdempotencyStore
			.failingTheFuture(() -> this.lease.complete(outcome, this.ttl, this.spentMarkers.markerFor(outcome)))
			.handle(this.reports::recorded);
	}

	/** {@return whether the stream, ended normally, was recorded so that retries replay it} */
	public CompletableFuture<Boolean> recordStream() {
		if (!this.settled.compareAndSet(false, true)) {
			return CompletableFuture.completedFuture(false);
		}
		return ForwardingAsyncIdempotencyStore.failingTheFuture(() -> this.lease.completeStream(this.ttl))
			.handle(this.reports::streamRecorded);
	}

	/**
	 * Deletes the record so that a retry runs again.
	 * @param warning why, when it deserves a WARN, or {@code null} for an ordinary release
	 * @return whether the record was deleted; {@code false} too when the attempt was already settled
	 */
	public CompletableFuture<Boolean> release(@Nullable String warning) {
		if (!this.settled.compareAndSet(false, true)) {
			return CompletableFuture.completedFuture(false);
		}
		this.reports.releasing(warning);
		return ForwardingAsyncIdempotencyStore.failingTheFuture(this.lease::release).handle(this.reports::released);
	}

	/**
	 * Stops renewing without touching the record, which then runs out on its own.
	 * @param warning why, logged as a WARN
	 */
	public void abandon(String warning) {
		if (this.settled.compareAndSet(false, true)) {
			this.reports.abandoned(warning);
			this.lease.abandon();
		}
	}

	/**
	 * {@return what a failed store call says, for a WARN}
	 * @param failure the failure, as a future reports it
	 */
	public static String describe(Throwable failure) {
		return SettlementReports.describe(failure);
	}

}
