package dev.modelgate.idempotency.core.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.IdempotencyContext;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.Lease;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;

/** A {@link Lease} renewed on a scheduler every third of its time to live until it is ended. */
public final class HeartbeatLease extends HeldAttempt implements Lease {

	private final IdempotencyStore store;

	private final ScheduledFuture<?> heartbeat;

	private final Runnable onEnd;

	/**
	 * @param onEnd runs once, when the holder first completes, releases or abandons the lease
	 */
	public HeartbeatLease(IdempotencyStore store, ScheduledExecutorService heartbeats, String scope, String token,
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

	@Override
	public boolean complete(@Nullable StoredOutcome outcome, Duration ttl) {
		stopHeartbeat();
		return this.store.complete(scope(), token(), outcome, ttl);
	}

	@Override
	public boolean complete(@Nullable StoredOutcome outcome, Duration ttl, @Nullable SpentMarker marker) {
		if (marker == null) {
			return complete(outcome, ttl);
		}
		stopHeartbeat();
		return this.store.complete(scope(), token(), outcome, ttl, marker);
	}

	@Override
	public boolean openStream(byte[] head) {
		return this.store.openStream(scope(), token(), head);
	}

	@Override
	public boolean appendEvents(long fromSequence, List<byte[]> events) {
		return this.store.appendEvents(scope(), token(), fromSequence, events);
	}

	@Override
	public boolean completeStream(Duration ttl) {
		stopHeartbeat();
		return this.store.completeStream(scope(), token(), ttl);
	}

	@Override
	public boolean release() {
		stopHeartbeat();
		return this.store.release(scope(), token());
	}

	@Override
	public void abandon() {
		stopHeartbeat();
	}

	@Override
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
