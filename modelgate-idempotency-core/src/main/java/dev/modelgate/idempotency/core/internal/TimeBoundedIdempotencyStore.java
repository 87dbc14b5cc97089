package dev.modelgate.idempotency.core.internal;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyRecord;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamSlice;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;

/**
 * Bounds every call to another store by a timeout, so that a hung store cannot hold a request
 * thread for longer than that. A call that times out is reported as a store failure; what it did
 * (if it ever reaches the store) is settled by the lease running out.
 */
public class TimeBoundedIdempotencyStore implements IdempotencyStore {

	private final IdempotencyStore delegate;

	private final ExecutorService executor;

	private final long timeoutNanos;

	/**
	 * A store whose calls give up after {@code timeout}.
	 * @param delegate the store that answers
	 * @param executor runs each call of the delegate
	 * @param timeout how long the caller waits for each call
	 */
	public TimeBoundedIdempotencyStore(IdempotencyStore delegate, ExecutorService executor, Duration timeout) {
		this.delegate = delegate;
		this.executor = executor;
		this.timeoutNanos = timeout.toNanos();
	}

	@Override
	public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		return call("begin", () -> this.delegate.begin(scope, fingerprint, token, leaseTtl));
	}

	@Override
	public boolean renew(String scope, String token, Duration leaseTtl) {
		return call("renew", () -> this.delegate.renew(scope, token, leaseTtl));
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
		return call("complete", () -> this.delegate.complete(scope, token, outcome, ttl));
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl,
			SpentMarker marker) {
		return call("complete", () -> this.delegate.complete(scope, token, outcome, ttl, marker));
	}

	@Override
	public boolean release(String scope, String token) {
		return call("release", () -> this.delegate.release(scope, token));
	}

	@Override
	public Optional<IdempotencyRecord> find(String scope) {
		return call("find", () -> this.delegate.find(scope));
	}

	@Override
	public boolean delete(String scope) {
		return call("delete", () -> this.delegate.delete(scope));
	}

	@Override
	public boolean openStream(String scope, String token, byte[] head) {
		return call("openStream", () -> this.delegate.openStream(scope, token, head));
	}

	@Override
	public boolean appendEvents(String scope, String token, long fromSequence, List<byte[]> events) {
		return call("appendEvents", () -> this.delegate.appendEvents(scope, token, fromSequence, events));
	}

	@Override
	public boolean completeStream(String scope, String token, Duration ttl) {
		return call("completeStream", () -> this.delegate.completeStream(scope, token, ttl));
	}

	@Override
	public Optional<StreamSlice> readStream(String scope, long afterSequence, int max) {
		return call("readStream", () -> this.delegate.readStream(scope, afterSequence, max));
	}

	/** {@return the store that answers} */
	public IdempotencyStore getDelegate() {
		return this.delegate;
	}

	private <T> T call(String operation, Callable<T> call) {
		Future<T> future;
		try {
			future = this.executor.submit(call);
		}
		catch (RejectedExecutionException ex) {
			throw new IdempotencyStoreException(operation + " could not be started", ex);
		}
		try {
			return future.get(this.timeoutNanos, TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			future.cancel(true);
			throw new IdempotencyStoreException(
					operation + " did not answer within " + Duration.ofNanos(this.timeoutNanos), ex);
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof IdempotencyStoreException storeFailure) {
				throw storeFailure;
			}
			// Not a failure of the store but a store without find, delete or streams: say so, unchanged.
			if (ex.getCause() instanceof UnsupportedOperationException unsupported) {
				throw unsupported;
			}
			throw new IdempotencyStoreException(operation + " failed", ex.getCause());
		}
		catch (InterruptedException ex) {
			future.cancel(true);
			Thread.currentThread().interrupt();
			throw new IdempotencyStoreException(operation + " was interrupted", ex);
		}
	}

}
