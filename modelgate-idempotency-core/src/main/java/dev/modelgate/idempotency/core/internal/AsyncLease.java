package dev.modelgate.idempotency.core.internal;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.StoredOutcome;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

/**
 * The non-blocking counterpart of {@link Lease}: the right to run one attempt, renewed every third of
 * its time to live through {@link AsyncIdempotencyStore#renew} until it is completed, released or
 * abandoned. Renewals never overlap: the next is timed once the last one answered. A renewal that
 * fails to reach the store is tried again at the next beat; the lease counts as lost only once the
 * store says another token holds the record (or nothing does).
 */
public final class AsyncLease extends HeldAttempt {

	private final AsyncIdempotencyStore store;

	private final Delayer delayer;

	private final Duration leaseTtl;

	private final Duration period;

	private volatile Runnable nextBeat = () -> {
	};

	public AsyncLease(AsyncIdempotencyStore store, Delayer delayer, String scope, String token, Duration leaseTtl) {
		super(scope, token);
		this.store = store;
		this.delayer = delayer;
		this.leaseTtl = leaseTtl;
		this.period = heartbeatPeriod(leaseTtl);
		scheduleBeat();
	}

	private void scheduleBeat() {
		if (!isEnded()) {
			this.nextBeat = this.delayer.schedule(this::beat, this.period);
		}
	}

	private void beat() {
		if (isEnded()) {
			return;
		}
		CompletableFuture<Boolean> renewal;
		try {
			renewal = this.store.renew(scope(), token(), this.leaseTtl);
		}
		catch (RuntimeException ex) {
			scheduleBeat();
			return;
		}
		renewal.whenComplete((renewed, failure) -> {
			if (failure == null && !renewed) {
				lose();
				end();
				return;
			}
			scheduleBeat();
		});
	}

	/**
	 * Stops renewing and records the outcome.
	 * @param outcome what to replay, or {@code null} when the result is not kept
	 * @param ttl how long the record is kept
	 * @return whether the store accepted it (false: the lease was lost to another holder)
	 */
	public CompletableFuture<Boolean> complete(@Nullable StoredOutcome outcome, Duration ttl) {
		stopHeartbeat();
		return this.store.complete(scope(), token(), outcome, ttl);
	}

	/**
	 * Stops renewing and deletes the record so that a retry runs again.
	 * @return whether the store accepted it
	 */
	public CompletableFuture<Boolean> release() {
		stopHeartbeat();
		return this.store.release(scope(), token());
	}

	/**
	 * Marks the held record as a stream with its head; the heartbeat goes on.
	 * @param head the stream's head
	 * @return whether the store accepted it
	 */
	public CompletableFuture<Boolean> openStream(byte[] head) {
		return this.store.openStream(scope(), token(), head);
	}

	/**
	 * Appends events to the held stream; the heartbeat goes on.
	 * @param fromSequence the sequence of the first event
	 * @param events the events' bytes
	 * @return whether the store accepted them
	 */
	public CompletableFuture<Boolean> appendEvents(long fromSequence, List<byte[]> events) {
		return this.store.appendEvents(scope(), token(), fromSequence, events);
	}

	/**
	 * Stops renewing and ends the held stream normally.
	 * @param ttl how long the stream is kept
	 * @return whether the store accepted it
	 */
	public CompletableFuture<Boolean> completeStream(Duration ttl) {
		stopHeartbeat();
		return this.store.completeStream(scope(), token(), ttl);
	}

	/** Stops renewing without touching the record; it then lasts until its lease runs out. */
	public void abandon() {
		stopHeartbeat();
	}


	private void stopHeartbeat() {
		if (end()) {
			this.nextBeat.run();
		}
	}

}
