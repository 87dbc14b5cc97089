package dev.modelgate.idempotency.web.reactive;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * The non-blocking counterpart of the core's {@code Lease}: the right to run one attempt, renewed
 * every third of its time to live through {@link AsyncIdempotencyStore#renew} until it is completed,
 * released or abandoned. A renewal that fails to reach the store is tried again at the next beat; the
 * lease counts as lost only once the store says another token holds the record (or nothing does).
 */
final class AsyncLease {

	private static final long SHORTEST_HEARTBEAT_MILLIS = 50;

	private final AsyncIdempotencyStore store;

	private final String scope;

	private final String token;

	private final Disposable heartbeat;

	private final AtomicBoolean ended = new AtomicBoolean();

	private volatile boolean lost;

	AsyncLease(AsyncIdempotencyStore store, Scheduler heartbeats, String scope, String token, Duration leaseTtl) {
		this.store = store;
		this.scope = scope;
		this.token = token;
		Duration period = Duration.ofMillis(Math.max(SHORTEST_HEARTBEAT_MILLIS, leaseTtl.toMillis() / 3));
		this.heartbeat = Flux.interval(period, period, heartbeats)
			.onBackpressureDrop()
			.concatMap((beat) -> Mono.fromFuture(() -> store.renew(scope, token, leaseTtl), true)
				.onErrorResume((ex) -> Mono.empty()), 1)
			.subscribe((renewed) -> {
				if (!renewed) {
					this.lost = true;
					stopHeartbeat();
				}
			});
	}

	CompletableFuture<Boolean> complete(@Nullable StoredOutcome outcome, Duration ttl) {
		stopHeartbeat();
		return this.store.complete(this.scope, this.token, outcome, ttl);
	}

	CompletableFuture<Boolean> release() {
		stopHeartbeat();
		return this.store.release(this.scope, this.token);
	}

	CompletableFuture<Boolean> openStream(byte[] head) {
		return this.store.openStream(this.scope, this.token, head);
	}

	CompletableFuture<Boolean> appendEvents(long fromSequence, List<byte[]> events) {
		return this.store.appendEvents(this.scope, this.token, fromSequence, events);
	}

	CompletableFuture<Boolean> completeStream(Duration ttl) {
		stopHeartbeat();
		return this.store.completeStream(this.scope, this.token, ttl);
	}

	void abandon() {
		stopHeartbeat();
	}

	boolean isLost() {
		return this.lost;
	}

	String scope() {
		return this.scope;
	}

	private void stopHeartbeat() {
		if (this.ended.compareAndSet(false, true)) {
			this.heartbeat.dispose();
		}
	}

}
