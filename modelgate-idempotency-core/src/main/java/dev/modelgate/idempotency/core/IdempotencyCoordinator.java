package dev.modelgate.idempotency.core;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.internal.HeartbeatLease;
import dev.modelgate.idempotency.core.internal.TimeBoundedIdempotencyStore;

/**
 * Drives the state machine for one attempt: asks the store to {@code begin}, waits for a running
 * duplicate when asked to, and hands the caller a {@link Lease} that keeps itself alive until the
 * caller completes or releases it. Knows nothing of HTTP, so the web filter and programmatic callers
 * share it.
 */
public class IdempotencyCoordinator implements AutoCloseable {

	private final IdempotencyStore store;

	private final ScheduledExecutorService heartbeats;

	private final ExecutorService storeCalls;

	private final boolean ownsThreads;

	private final AtomicInteger leasesHeld = new AtomicInteger();

	/**
	 * @param store where records live
	 * @param heartbeats runs lease renewals while work is in progress
	 */
	public IdempotencyCoordinator(IdempotencyStore store, ScheduledExecutorService heartbeats) {
		this(store, heartbeats, null, false);
	}

	private IdempotencyCoordinator(IdempotencyStore store, ScheduledExecutorService heartbeats,
			ExecutorService storeCalls, boolean ownsThreads) {
		this.store = store;
		this.heartbeats = heartbeats;
		LeaseTokens.seed();
		this.storeCalls = storeCalls;
		this.ownsThreads = ownsThreads;
	}

	/**
	 * A coordinator with its own daemon threads: one for heartbeats, and, unless the store bounds its
	 * own calls within {@code operationTimeout} (see {@link IdempotencyStore#callTimeLimit()}), a pool
	 * that runs each store call so that it can be abandoned after {@code operationTimeout}.
	 * {@link #close()} stops them.
	 * @param store where records live
	 * @param operationTimeout upper bound of each store call
	 * @return the coordinator
	 */
	public static IdempotencyCoordinator create(IdempotencyStore store, Duration operationTimeout) {
		return create(store, operationTimeout, UnaryOperator.identity());
	}

	/**
	 * A coordinator like {@link #create(IdempotencyStore, Duration)} whose store calls go through
	 * {@code decorator} (metrics, tracing). The decorator wraps the time-bounded store (or the store
	 * itself, when it bounds its own calls), so that it runs on the caller's thread, where a tracing
	 * context lives, and measures what the caller waits for, timeouts included.
	 * @param store where records live
	 * @param operationTimeout upper bound of each store call
	 * @param decorator wraps the store as the coordinator calls it
	 * @return the coordinator
	 */
	public static IdempotencyCoordinator create(IdempotencyStore store, Duration operationTimeout,
			UnaryOperator<IdempotencyStore> decorator) {
		ScheduledThreadPoolExecutor heartbeats = new ScheduledThreadPoolExecutor(1, daemonThreads("heartbeat"));
		// Cancelled heartbeats would otherwise stay queued until their next due time.
		heartbeats.setRemoveOnCancelPolicy(true);
		// The executor wakes its thread whenever a task becomes the earliest in its queue: with nothing
		// else queued, that is every lease, so every request would pay a thread wake-up. A no-op beat
		// every second is earlier than any default lease's first renewal, and the thread stays asleep.
		heartbeats.scheduleWithFixedDelay(() -> {
		}, 1, 1, TimeUnit.SECONDS);
		Duration limit = store.callTimeLimit();
		if (limit != null && limit.compareTo(operationTimeout) <= 0) {
			// The store already answers or fails in time; a hand-off to another thread would add two
			// thread switches to every call and bound nothing more.
			return new IdempotencyCoordinator(decorator.apply(store), heartbeats, null, true);
		}
		ExecutorService storeCalls = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
				new SynchronousQueue<>(), daemonThreads("store"));
		IdempotencyStore bounded = new TimeBoundedIdempotencyStore(store, storeCalls, operationTimeout);
		return new IdempotencyCoordinator(decorator.apply(bounded), heartbeats, storeCalls, true);
	}

	private static ThreadFactory daemonThreads(String role) {
		AtomicInteger count = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, "modelgate-idempotency-" + role + "-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	/** Stops the threads this coordinator created (none when it was given its executor). */
	@Override
	public void close() {
		if (this.ownsThreads) {
			this.heartbeats.shutdownNow();
			if (this.storeCalls != null) {
				this.storeCalls.shutdownNow();
			}
		}
	}

	/**
	 * Begins an attempt.
	 * @param scope the scope hash
	 * @param fingerprint the request fingerprint
	 * @param leaseTtl how long the lease lasts between heartbeats
	 * @param waitTimeout how long to wait for a running duplicate to finish; zero answers
	 * {@code IN_PROGRESS} at once
	 * @return the outcome; when {@code ACQUIRED} the caller must close the attempt's lease
	 * @throws IdempotencyStoreException when the store cannot be asked
	 */
	public Attempt begin(String scope, String fingerprint, Duration leaseTtl, Duration waitTimeout) {
		String token = LeaseTokens.next();
		long deadline = System.nanoTime() + waitTimeout.toNanos();
		Duration pause = BeginPolling.FIRST_PAUSE;
		boolean waited = false;
		while (true) {
			BeginResult result = this.store.begin(scope, fingerprint, token, leaseTtl);
			if (result.outcome() == BeginResult.Outcome.ACQUIRED) {
				this.leasesHeld.incrementAndGet();
				return new Attempt(result, waited, new HeartbeatLease(this.store.forHolder(scope), this.heartbeats, scope, token,
						leaseTtl, this.leasesHeld::decrementAndGet));
			}
			long remaining = deadline - System.nanoTime();
			if (BeginPolling.isFinal(result, remaining)) {
				return new Attempt(result, waited, null);
			}
			waited = true;
			if (!sleep(Math.min(pause.toNanos(), remaining))) {
				return new Attempt(result, true, null);
			}
			pause = BeginPolling.next(pause);
		}
	}

	/**
	 * How many leases this coordinator handed out that are not yet completed, released or abandoned:
	 * the operations running right now under a key (a gauge for operators).
	 * @return the number of leases held
	 */
	public int getLeasesHeld() {
		return this.leasesHeld.get();
	}

	/** {@return the store as this coordinator calls it: bounded by the operation timeout and decorated} */
	public IdempotencyStore getStore() {
		return this.store;
	}

	private static boolean sleep(long nanos) {
		try {
			Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * The answer to {@link #begin}.
	 *
	 * @param result what the store answered last
	 * @param waited whether the caller waited for a running duplicate
	 * @param lease the held lease when {@code ACQUIRED}, else {@code null}
	 */
	public record Attempt(BeginResult result, boolean waited, @Nullable Lease lease) {

		/** {@return the outcome of the store's last answer} */
		public BeginResult.Outcome outcome() {
			return this.result.outcome();
		}

	}

}
