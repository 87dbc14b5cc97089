package dev.modelgate.idempotency.actuate;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStores;
import dev.modelgate.idempotency.core.TimeBoundedIdempotencyStore;

/**
 * Health of the idempotency store: {@code UP} when it answers a read of a probe record within the
 * operation timeout, {@code DOWN} otherwise.
 *
 * <p>The probe is a {@link IdempotencyStore#find find}, the read the state machine's own reads go
 * through, rather than a bare ping: it also fails when the server answers but the records cannot be
 * read (the JDBC table missing or not readable, a Redis that refuses scripts), which a
 * {@code PING} or a connection check would report as healthy. It runs with the store's own
 * connections, and is bounded by the timeout so a hung store makes the check {@code DOWN}, not
 * slow.
 *
 * <p>The Spring Boot 3 line's variant, on Spring Boot 3's health API.
 */
public class IdempotencyStoreHealthIndicator extends AbstractHealthIndicator implements DisposableBean {

	/** The scope the probe reads; no request produces it (real scopes are 64 hex digits). */
	static final String PROBE_SCOPE = "modelgate-health-probe";

	private final IdempotencyStore store;

	private final ExecutorService executor;

	private final IdempotencyStore bounded;

	/**
	 * @param store the store to check
	 * @param timeout how long the probe may take before the store counts as down
	 */
	public IdempotencyStoreHealthIndicator(IdempotencyStore store, Duration timeout) {
		super("Idempotency store health check failed");
		this.store = store;
		AtomicInteger threads = new AtomicInteger();
		this.executor = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(),
				(runnable) -> {
					Thread thread = new Thread(runnable, "modelgate-idempotency-health-" + threads.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
		this.bounded = new TimeBoundedIdempotencyStore(store, this.executor, timeout);
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		builder.withDetail("store", IdempotencyStores.typeOf(this.store));
		try {
			this.bounded.find(PROBE_SCOPE);
			builder.up();
		}
		catch (UnsupportedOperationException ex) {
			builder.unknown().withDetail("reason", "the store cannot be inspected (it does not implement find)");
		}
	}

	@Override
	public void destroy() {
		this.executor.shutdownNow();
	}

}
