package dev.modelgate.idempotency.core.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.AsyncLease;
import dev.modelgate.idempotency.core.Delayer;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * An {@link AsyncLease}: the right to run one attempt, renewed every third of
 * its time to live through {@link AsyncIdempotencyStore#renew} until it is completed, released or
 * abandoned. Renewals never overlap: the next is timed once the last one answered. A renewal that
 * fails to reach the store is tried again at the next beat; the lease counts as lost only once the
 * store says another token holds the record (or nothing does).
 */
public final class AsyncHeartbeatLease extends HeldAttempt implements AsyncLease {

	private final AsyncIdempotencyStore store;

	private final Delayer delayer;

	private final Duration leaseTtl;

	private final Duration period;

	private volatile Runnable nextBeat = () -> {
	};

	public AsyncHeartbeatLease(AsyncIdempotencyStore store, Delayer delayer, String scope, String token, Duration leaseTtl) {
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

	@Override
	public CompletableFuture<Boolean> complete(@Nullable StoredOutcome outcome, Duration ttl) {
		stopHeartbeat();
		return this.store.complete(scope(), token(), outcome, ttl);
	}

	@Override
	public CompletableFuture<Boolean> complete(@Nullable StoredOutcome outcome, Duration ttl,
			@Nullable SpentMarker marker) {
		if (marker == null) {
			return complete(outcome, ttl);
		}
		stopHeartbeat();
		return this.store.complete(scope(), token(), outcome, ttl, marker);
	}

	@Override
	public CompletableFuture<Boolean> release() {
		stopHeartbeat();
		return this.store.release(scope(), token());
	}

	@Override
	public CompletableFuture<Boolean> openStream(byte[] head) {
		return this.store.openStream(scope(), token(), head);
	}

	@Override
	public CompletableFuture<Boolean> appendEvents(long fromSequence, List<byte[]> events) {
		return this.store.appendEvents(scope(), token(), fromSequence, events);
	}

	@Override
	public CompletableFuture<Boolean> completeStream(Duration ttl) {
		stopHeartbeat();
		return this.store.completeStream(scope(), token(), ttl);
	}

	@Override
	public void abandon() {
		stopHeartbeat();
	}


	private void stopHeartbeat() {
		if (end()) {
			this.nextBeat.run();
		}
	}

}
