package dev.modelgate.idempotency.actuate;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.IdempotencyStores;
import dev.modelgate.idempotency.core.internal.TimeBoundedIdempotencyStore;

/**
 * What the {@code idempotency} health indicator asks the store, without Spring Boot's health API, so
 * that both Boot lines' indicators (on their own health APIs) share it: the read of the probe record and then the store's
 * {@link IdempotencyStoreHealthDetails}, each bounded by the timeout on threads of its own.
 */
public final class IdempotencyStoreProbe implements AutoCloseable {

	/** The scope the probe reads; no request produces it (real scopes are 64 hex digits). */
	static final String PROBE_SCOPE = "modelgate-health-probe";

	private final IdempotencyStore store;

	private final ExecutorService executor;

	private final IdempotencyStore bounded;

	private final IdempotencyStoreHealthDetails details;

	private final Duration timeout;

	/**
	 * @param store the store to check
	 * @param timeout how long the read, and then the details, may take
	 * @param details what the store adds to the health once the probe answered
	 */
	public IdempotencyStoreProbe(IdempotencyStore store, Duration timeout, IdempotencyStoreHealthDetails details) {
		this.store = store;
		this.details = details;
		this.timeout = timeout;
		AtomicInteger threads = new AtomicInteger();
		this.executor = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(),
				(runnable) -> {
					Thread thread = new Thread(runnable, "modelgate-idempotency-health-" + threads.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
		this.bounded = new TimeBoundedIdempotencyStore(store, this.executor, timeout);
	}

	/** {@return the kind of store, the {@code store} detail} */
	public String storeType() {
		return IdempotencyStores.typeOf(this.store);
	}

	/**
	 * Reads the probe record within the timeout.
	 * @throws UnsupportedOperationException when the store does not implement {@code find}
	 * @throws RuntimeException when the store fails or does not answer in time
	 */
	public void read() {
		this.bounded.find(PROBE_SCOPE);
	}

	/**
	 * {@return the store's health details, read within the timeout}
	 * @throws RuntimeException when they fail or do not answer in time
	 */
	public Map<String, Object> details() {
		Future<Map<String, Object>> future = this.executor.submit(this.details::details);
		try {
			return future.get(this.timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			future.cancel(true);
			throw new IdempotencyStoreException("The store's health details did not answer within " + this.timeout,
					ex);
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof RuntimeException failure) ? failure
					: new IdempotencyStoreException("The store's health details failed", ex.getCause());
		}
		catch (InterruptedException ex) {
			future.cancel(true);
			Thread.currentThread().interrupt();
			throw new IdempotencyStoreException("The store's health details were interrupted", ex);
		}
	}

	/** Stops the probe's threads. */
	@Override
	public void close() {
		this.executor.shutdownNow();
	}

}
