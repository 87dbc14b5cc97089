package dev.modelgate.idempotency.boot4.autoconfigure;

import java.time.Duration;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import dev.modelgate.idempotency.actuate.IdempotencyStoreHealthDetails;
import dev.modelgate.idempotency.actuate.IdempotencyStoreProbe;
import dev.modelgate.idempotency.core.IdempotencyStore;

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
 * <p>Once the probe answered, the store's {@link IdempotencyStoreHealthDetails} are added (the Redis
 * store's eviction policy, with a warning when Redis may evict records). They leave the status
 * {@code UP}: they report a risk, not a failure (requests are served as they should be now), and
 * every instance shares the store, so a {@code DOWN} would take all of them out of the load balancer
 * at once, an outage in place of a risk. The start-up check
 * ({@code modelgate.idempotency.redis.require-noeviction}) is the place to refuse such a store.
 */
public class IdempotencyStoreHealthIndicator extends AbstractHealthIndicator implements DisposableBean {

	private final IdempotencyStoreProbe probe;

	/**
	 * @param store the store to check
	 * @param timeout how long the probe may take before the store counts as down
	 */
	public IdempotencyStoreHealthIndicator(IdempotencyStore store, Duration timeout) {
		this(store, timeout, IdempotencyStoreHealthDetails.none());
	}

	/**
	 * @param store the store to check
	 * @param timeout how long the probe, and then the details, may take before the store counts as down
	 * @param details what the store adds to the health once the probe answered
	 */
	public IdempotencyStoreHealthIndicator(IdempotencyStore store, Duration timeout,
			IdempotencyStoreHealthDetails details) {
		super("Idempotency store health check failed");
		this.probe = new IdempotencyStoreProbe(store, timeout, details);
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		builder.withDetail("store", this.probe.storeType());
		try {
			this.probe.read();
		}
		catch (UnsupportedOperationException ex) {
			builder.unknown().withDetail("reason", "the store cannot be inspected (it does not implement find)");
			return;
		}
		builder.up().withDetails(this.probe.details());
	}

	@Override
	public void destroy() {
		this.probe.close();
	}

}
