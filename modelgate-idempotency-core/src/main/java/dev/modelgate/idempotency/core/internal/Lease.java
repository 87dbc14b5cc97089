package dev.modelgate.idempotency.core.internal;

import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.IdempotencyContext;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.StoredOutcome;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The right to run one attempt, renewed in the background every third of its time to live until it
 * is completed or released. If a renewal finds the record gone or held by another token, the lease
 * is lost: the work may still finish, but its completion will be refused by the store.
 */
public final class Lease extends HeldAttempt {

	private final IdempotencyStore store;

	private final ScheduledFuture<?> heartbeat;

	private final Runnable onEnd;

	/**
	 * @param onEnd runs once, when the holder first completes, releases or abandons the lease
	 */
	public Lease(IdempotencyStore store, ScheduledExecutorService heartbeats, String scope, String token,
			Duration leaseTtl, Runnable onEnd) {
		super(scope, token);
		this.store = store;
		this.onEnd = onEnd;
		long period = heartbeatPeriod(leaseTtl).toMillis();
		this.heartbeat = heartbeats.scheduleWithFixedDelay(() -> renew(leaseTtl), period, period,
				TimeUnit.MILLISECONDS);
	}

	private void renew(Duration leaseTtl) {
		try {
			if (!this.store.renew(scope(), token(), leaseTtl)) {
				lose();
				this.heartbeat.cancel(false);
			}
		}
		catch (RuntimeException ex) {
			// A renewal that fails to reach the store is retried at the next beat; the lease only
			// counts as lost once the store says another token holds it (or nothing does).
		}
	}

	/**
	 * Stops renewing and records the outcome.
	 * @param outcome what to replay, or {@code null} when the result is not kept
	 * @param ttl how long the record is kept
	 * @return whether the store accepted it (false: the lease was lost to another holder)
	 * @throws IdempotencyStoreException when the store cannot be asked
	 */
	public boolean complete(@Nullable StoredOutcome outcome, Duration ttl) {
		stopHeartbeat();
		return this.store.complete(scope(), token(), outcome, ttl);
	}

	/**
	 * Marks the held record as a stream with its head (see {@link IdempotencyStore#openStream}); the
	 * heartbeat goes on.
	 * @param head the stream's head
	 * @return whether the store accepted it
	 * @throws IdempotencyStoreException when the store cannot be asked
	 */
	public boolean openStream(byte[] head) {
		return this.store.openStream(scope(), token(), head);
	}

	/**
	 * Appends events to the held stream (see {@link IdempotencyStore#appendEvents}); the heartbeat goes on.
	 * @param fromSequence the sequence of the first event
	 * @param events the events' bytes
	 * @return whether the store accepted them
	 * @throws IdempotencyStoreException when the store cannot be asked
	 */
	public boolean appendEvents(long fromSequence, List<byte[]> events) {
		return this.store.appendEvents(scope(), token(), fromSequence, events);
	}

	/**
	 * Stops renewing and ends the held stream normally (see {@link IdempotencyStore#completeStream}).
	 * @param ttl how long the stream is kept
	 * @return whether the store accepted it
	 * @throws IdempotencyStoreException when the store cannot be asked
	 */
	public boolean completeStream(Duration ttl) {
		stopHeartbeat();
		return this.store.completeStream(scope(), token(), ttl);
	}

	/**
	 * Stops renewing and deletes the record so that a retry runs again.
	 * @return whether the store accepted it
	 * @throws IdempotencyStoreException when the store cannot be asked
	 */
	public boolean release() {
		stopHeartbeat();
		return this.store.release(scope(), token());
	}

	/** Stops renewing without touching the record; it then lasts until its lease runs out. */
	public void abandon() {
		stopHeartbeat();
	}

	/**
	 * Binds this lease as the current thread's attempt (see {@link IdempotencyContext}).
	 * @return closes the binding and restores the previous one
	 */
	public IdempotencyContext.Binding bindToCurrentThread() {
		return IdempotencyContext.bind(held());
	}

	private void stopHeartbeat() {
		this.heartbeat.cancel(false);
		if (end()) {
			this.onEnd.run();
		}
	}

}
