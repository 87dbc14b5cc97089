package dev.modelgate.idempotency.jdbc;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Deletes expired idempotency records every {@code interval} on a daemon thread of its own, so that
 * applications need no {@code @EnableScheduling}. Expired records already count as absent; purging
 * only keeps the table small. The first purge runs one interval after start, not at start-up.
 */
public class JdbcIdempotencyPurger implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(JdbcIdempotencyPurger.class);

	private static final int BATCH_SIZE = 1000;

	private final JdbcIdempotencyStore store;

	private final Duration interval;

	private volatile ScheduledExecutorService scheduler;

	/**
	 * A purger that has not started yet.
	 * @param store the store whose expired records are deleted
	 * @param interval how often they are deleted
	 */
	public JdbcIdempotencyPurger(JdbcIdempotencyStore store, Duration interval) {
		if (interval.isNegative() || interval.isZero()) {
			throw new IllegalArgumentException("The purge interval must be positive, was " + interval);
		}
		this.store = store;
		this.interval = interval;
	}

	@Override
	public void start() {
		ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread thread = new Thread(runnable, "modelgate-idempotency-purge");
			thread.setDaemon(true);
			return thread;
		});
		long period = this.interval.toMillis();
		scheduler.scheduleWithFixedDelay(this::purge, period, period, TimeUnit.MILLISECONDS);
		this.scheduler = scheduler;
	}

	/** Runs one purge; a failure is logged and the next one tried at the next interval. */
	private void purge() {
		try {
			int deleted = this.store.purgeExpired(BATCH_SIZE);
			if (deleted > 0 && logger.isDebugEnabled()) {
				logger.debug("Purged " + deleted + " expired idempotency records");
			}
		}
		catch (RuntimeException ex) {
			// An exception escaping would cancel every later run of the scheduled task.
			logger.warn("Could not purge expired idempotency records; retrying in " + this.interval + ": "
					+ ex.getMessage());
		}
	}

	@Override
	public void stop() {
		ScheduledExecutorService scheduler = this.scheduler;
		if (scheduler != null) {
			scheduler.shutdownNow();
			this.scheduler = null;
		}
	}

	@Override
	public boolean isRunning() {
		return this.scheduler != null;
	}

}
