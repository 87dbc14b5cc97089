package dev.modelgate.idempotency.core.internal;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamSlice;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

/**
 * An {@link AsyncIdempotencyStore} over a blocking {@link IdempotencyStore}, for callers that must not
 * block (WebFlux, Spring Cloud Gateway) on a store that can only block (JDBC, the Lettuce-backed
 * template): each call runs on a bounded pool of this adapter's own, so that an event-loop thread
 * only hands it over and later continues with the answer.
 *
 * <p>A store that never waits ({@link IdempotencyStore#callTimeLimit()} is zero: the memory store)
 * is called directly on the caller's thread, without a hand-off.
 *
 * <p>The pool is bounded in threads and in queued calls. A call that finds the queue full fails at
 * once with an {@link IdempotencyStoreException}, so that under overload a request is answered 503
 * instead of waiting without end; a call that does not answer within {@code operationTimeout}
 * (queueing included) fails the same way, and its thread is interrupted. What such a call did, if it
 * ever reaches the store, is settled by the lease running out, as with
 * {@link TimeBoundedIdempotencyStore}.
 */
public final class BlockingIdempotencyStoreAdapter implements AsyncIdempotencyStore, AutoCloseable {

	private final IdempotencyStore store;

	private final @Nullable ThreadPoolExecutor pool;

	private final Duration operationTimeout;

	private BlockingIdempotencyStoreAdapter(IdempotencyStore store, @Nullable ThreadPoolExecutor pool,
			Duration operationTimeout) {
		this.store = store;
		this.pool = pool;
		this.operationTimeout = operationTimeout;
	}

	/**
	 * An adapter with a pool of its own (daemon threads, stopped by {@link #close()}), unless the store
	 * never waits.
	 * @param store the blocking store
	 * @param operationTimeout how long each call may take, from the moment it is asked for
	 * @param threads the most calls that run at once
	 * @param queueCapacity the most calls that wait for a thread; past it calls fail at once
	 * @return the adapter
	 */
	public static BlockingIdempotencyStoreAdapter create(IdempotencyStore store, Duration operationTimeout,
			int threads, int queueCapacity) {
		if (threads < 1 || queueCapacity < 1) {
			throw new IllegalArgumentException("threads and queueCapacity must be at least 1");
		}
		if (Duration.ZERO.equals(store.callTimeLimit())) {
			return new BlockingIdempotencyStoreAdapter(store, null, operationTimeout);
		}
		AtomicInteger count = new AtomicInteger();
		ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
				new ArrayBlockingQueue<>(queueCapacity), (runnable) -> {
					Thread thread = new Thread(runnable, "modelgate-idempotency-async-store-" + count.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				}, new ThreadPoolExecutor.AbortPolicy());
		pool.allowCoreThreadTimeOut(true);
		return new BlockingIdempotencyStoreAdapter(store, pool, operationTimeout);
	}

	/** {@return whether calls run on the caller's thread, the store never waiting} */
	public boolean isDirect() {
		return this.pool == null;
	}

	@Override
	public CompletableFuture<BeginResult> begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		return call("begin", () -> this.store.begin(scope, fingerprint, token, leaseTtl));
	}

	@Override
	public CompletableFuture<Boolean> renew(String scope, String token, Duration leaseTtl) {
		return call("renew", () -> this.store.renew(scope, token, leaseTtl));
	}

	@Override
	public CompletableFuture<Boolean> complete(String scope, String token, @Nullable StoredOutcome outcome,
			Duration ttl) {
		return call("complete", () -> this.store.complete(scope, token, outcome, ttl));
	}

	@Override
	public CompletableFuture<Boolean> complete(String scope, String token, @Nullable StoredOutcome outcome,
			Duration ttl, SpentMarker marker) {
		return call("complete", () -> this.store.complete(scope, token, outcome, ttl, marker));
	}

	@Override
	public CompletableFuture<Boolean> release(String scope, String token) {
		return call("release", () -> this.store.release(scope, token));
	}

	@Override
	public CompletableFuture<Boolean> openStream(String scope, String token, byte[] head) {
		return call("openStream", () -> this.store.openStream(scope, token, head));
	}

	@Override
	public CompletableFuture<Boolean> appendEvents(String scope, String token, long fromSequence,
			List<byte[]> events) {
		return call("appendEvents", () -> this.store.appendEvents(scope, token, fromSequence, events));
	}

	@Override
	public CompletableFuture<Boolean> completeStream(String scope, String token, Duration ttl) {
		return call("completeStream", () -> this.store.completeStream(scope, token, ttl));
	}

	@Override
	public CompletableFuture<Optional<StreamSlice>> readStream(String scope, long afterSequence, int max) {
		return call("readStream", () -> this.store.readStream(scope, afterSequence, max));
	}

	/** Stops the pool's threads; calls still queued fail with an {@link IdempotencyStoreException}. */
	@Override
	public void close() {
		if (this.pool != null) {
			this.pool.shutdownNow();
		}
	}

	private <T> CompletableFuture<T> call(String operation, Callable<T> call) {
		ThreadPoolExecutor executor = this.pool;
		if (executor == null) {
			try {
				return CompletableFuture.completedFuture(call.call());
			}
			catch (Exception ex) {
				return CompletableFuture.failedFuture(failure(operation, ex));
			}
		}
		CompletableFuture<T> answer = new CompletableFuture<>();
		Future<?> running;
		try {
			running = executor.submit(() -> {
				try {
					answer.complete(call.call());
				}
				catch (Exception ex) {
					answer.completeExceptionally(failure(operation, ex));
				}
			});
		}
		catch (RejectedExecutionException ex) {
			return CompletableFuture.failedFuture(new IdempotencyStoreException(operation
					+ " could not be started: " + executor.getQueue().size() + " store calls are already waiting",
					ex));
		}
		answer.orTimeout(this.operationTimeout.toNanos(), TimeUnit.NANOSECONDS);
		return answer.handle((value, failure) -> {
			if (failure == null) {
				return value;
			}
			if (failure instanceof TimeoutException) {
				running.cancel(true);
				throw new CompletionException(new IdempotencyStoreException(
						operation + " did not answer within " + this.operationTimeout, failure));
			}
			throw (failure instanceof CompletionException completion) ? completion : new CompletionException(failure);
		});
	}

	/**
	 * A failure as the async contract reports it: a store failure as it is, a store without streams
	 * unchanged (not a failure of the store), anything else as a store failure.
	 */
	private static RuntimeException failure(String operation, Exception ex) {
		if (ex instanceof IdempotencyStoreException || ex instanceof UnsupportedOperationException) {
			return (RuntimeException) ex;
		}
		return new IdempotencyStoreException(operation + " failed", ex);
	}

}
