package dev.modelgate.idempotency.core.internal;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyContext;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamSlice;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

/**
 * The non-blocking counterpart of {@link Lease}: the right to run one attempt, renewed every third of
 * its time to live through {@link AsyncIdempotencyStore#renew} until it is completed, released or
 * abandoned. Renewals never overlap: the next is timed once the last one answered. A renewal that
 * fails to reach the store is tried again at the next beat; the lease counts as lost only once the
 * store says another token holds the record (or nothing does).
 */
public final class AsyncLease {

	private static final long SHORTEST_HEARTBEAT_MILLIS = 50;

	private final AsyncIdempotencyStore store;

	private final Delayer delayer;

	private final String scope;

	private final String token;

	private final Duration leaseTtl;

	private final Duration period;

	private final AtomicBoolean ended = new AtomicBoolean();

	private volatile Runnable nextBeat = () -> {
	};

	private volatile boolean lost;

	public AsyncLease(AsyncIdempotencyStore store, Delayer delayer, String scope, String token, Duration leaseTtl) {
		this.store = store;
		this.delayer = delayer;
		this.scope = scope;
		this.token = token;
		this.leaseTtl = leaseTtl;
		this.period = Duration.ofMillis(Math.max(SHORTEST_HEARTBEAT_MILLIS, leaseTtl.toMillis() / 3));
		scheduleBeat();
	}

	private void scheduleBeat() {
		if (!this.ended.get()) {
			this.nextBeat = this.delayer.schedule(this::beat, this.period);
		}
	}

	private void beat() {
		if (this.ended.get()) {
			return;
		}
		CompletableFuture<Boolean> renewal;
		try {
			renewal = this.store.renew(this.scope, this.token, this.leaseTtl);
		}
		catch (RuntimeException ex) {
			scheduleBeat();
			return;
		}
		renewal.whenComplete((renewed, failure) -> {
			if (failure == null && !renewed) {
				this.lost = true;
				this.ended.set(true);
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
		return this.store.complete(this.scope, this.token, outcome, ttl);
	}

	/**
	 * Stops renewing and deletes the record so that a retry runs again.
	 * @return whether the store accepted it
	 */
	public CompletableFuture<Boolean> release() {
		stopHeartbeat();
		return this.store.release(this.scope, this.token);
	}

	/**
	 * Marks the held record as a stream with its head; the heartbeat goes on.
	 * @param head the stream's head
	 * @return whether the store accepted it
	 */
	public CompletableFuture<Boolean> openStream(byte[] head) {
		return this.store.openStream(this.scope, this.token, head);
	}

	/**
	 * Appends events to the held stream; the heartbeat goes on.
	 * @param fromSequence the sequence of the first event
	 * @param events the events' bytes
	 * @return whether the store accepted them
	 */
	public CompletableFuture<Boolean> appendEvents(long fromSequence, List<byte[]> events) {
		return this.store.appendEvents(this.scope, this.token, fromSequence, events);
	}

	/**
	 * Stops renewing and ends the held stream normally.
	 * @param ttl how long the stream is kept
	 * @return whether the store accepted it
	 */
	public CompletableFuture<Boolean> completeStream(Duration ttl) {
		stopHeartbeat();
		return this.store.completeStream(this.scope, this.token, ttl);
	}

	/** Stops renewing without touching the record; it then lasts until its lease runs out. */
	public void abandon() {
		stopHeartbeat();
	}

	/** {@return whether a renewal found that this attempt no longer holds the record} */
	public boolean isLost() {
		return this.lost;
	}

	/** {@return the hashed scope the lease holds} */
	public String scope() {
		return this.scope;
	}

	/**
	 * {@return this attempt, as code deeper in the work finds it} A reactive engine puts it in Reactor's
	 * context under {@link IdempotencyContext#CONTEXT_KEY}, where a thread-bound {@link IdempotencyContext}
	 * cannot follow the work.
	 */
	public IdempotencyContext.Held held() {
		return new IdempotencyContext.Held(this.scope, this.token);
	}

	/**
	 * {@return the attempt's short public name} The ids of the events its stream records carry it, so
	 * that a {@code Last-Event-ID} names the attempt as well as the place ({@link StreamSlice#attemptTag()}).
	 */
	public String attemptTag() {
		return AttemptTags.of(this.token);
	}

	private void stopHeartbeat() {
		if (this.ended.compareAndSet(false, true)) {
			this.nextBeat.run();
		}
	}

}
