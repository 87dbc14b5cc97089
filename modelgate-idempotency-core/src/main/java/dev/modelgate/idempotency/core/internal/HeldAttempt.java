package dev.modelgate.idempotency.core.internal;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.modelgate.idempotency.core.IdempotencyContext;
import dev.modelgate.idempotency.core.StreamSlice;

/**
 * What a lease is, whichever way it talks to its store ({@link HeartbeatLease} blocks, {@link AsyncHeartbeatLease}
 * does not): the held record's scope and the attempt's token, whether the holder has ended it, whether a
 * renewal found it lost, and how often it is renewed.
 */
public abstract sealed class HeldAttempt permits HeartbeatLease, AsyncHeartbeatLease {

	private static final long SHORTEST_HEARTBEAT_MILLIS = 50;

	private final String scope;

	private final String token;

	private final AtomicBoolean ended = new AtomicBoolean();

	private volatile boolean lost;

	HeldAttempt(String scope, String token) {
		this.scope = scope;
		this.token = token;
	}

	/** {@return how long between renewals: a third of the lease's time to live, 50 ms at the least} */
	static Duration heartbeatPeriod(Duration leaseTtl) {
		return Duration.ofMillis(Math.max(SHORTEST_HEARTBEAT_MILLIS, leaseTtl.toMillis() / 3));
	}

	/** {@return the hashed scope the lease holds} */
	public final String scope() {
		return this.scope;
	}

	final String token() {
		return this.token;
	}

	/** {@return whether a renewal found that this attempt no longer holds the record} */
	public final boolean isLost() {
		return this.lost;
	}

	/** A renewal found the record gone or held by another token. */
	final void lose() {
		this.lost = true;
	}

	/** {@return whether the lease was completed, released, abandoned or lost} */
	final boolean isEnded() {
		return this.ended.get();
	}

	/** {@return {@code true} the first time the holder ends the lease} */
	final boolean end() {
		return this.ended.compareAndSet(false, true);
	}

	/**
	 * {@return the attempt's short public name} The ids of the events its stream records carry it, so
	 * that a {@code Last-Event-ID} names the attempt as well as the place ({@link StreamSlice#attemptTag()}).
	 */
	public final String attemptTag() {
		return AttemptTags.of(this.token);
	}

	/**
	 * {@return this attempt, as code deeper in the work finds it} A reactive engine puts it in Reactor's
	 * context under {@link IdempotencyContext#CONTEXT_KEY}; a blocking one binds it to the thread
	 * ({@link dev.modelgate.idempotency.core.Lease#bindToCurrentThread()}).
	 */
	public final IdempotencyContext.Held held() {
		return new IdempotencyContext.Held(this.scope, this.token);
	}

}
