package dev.modelgate.idempotency.autoconfigure;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.dao.QueryTimeoutException;

import dev.modelgate.idempotency.redis.RedisEvictionPolicy;
import dev.modelgate.idempotency.redis.RedisEvictionPolicyReader;

/**
 * Checks at start-up that the Redis store's server does not evict records: any {@code maxmemory-policy}
 * but {@code noeviction}, or one that cannot be read, is logged as a warning, or, with
 * {@code modelgate.idempotency.redis.require-noeviction}, fails start-up.
 *
 * <p>A Redis that does not answer within the operation timeout is not checked, and the application starts
 * all the same, required or not: the store being down at start-up must not stop it (requests get 503
 * until Redis answers, and nothing can be evicted from a Redis that stores nothing), and failing would turn
 * a Redis outage into instances that cannot restart. The {@code idempotency} health shows the policy once
 * Redis answers, and the guard asks again in the background, every {@code retryInterval}, until Redis
 * answers: then a policy that evicts gets its WARN (a started application is never stopped for it).
 */
class RedisEvictionPolicyGuard implements InitializingBean, DisposableBean {

	private static final Log logger = LogFactory.getLog(RedisEvictionPolicyGuard.class);

	private final RedisEvictionPolicyReader reader;

	private final boolean requireNoEviction;

	private final Duration timeout;

	private final Duration retryInterval;

	private volatile @Nullable ScheduledExecutorService retries;

	/**
	 * @param reader reads the policy of the store's Redis
	 * @param requireNoEviction whether a policy other than noeviction fails start-up
	 * @param timeout how long the check may delay start-up before it is given up
	 * @param retryInterval how often the check is tried again, in the background, when Redis did not
	 * answer at start-up
	 */
	RedisEvictionPolicyGuard(RedisEvictionPolicyReader reader, boolean requireNoEviction, Duration timeout,
			Duration retryInterval) {
		this.reader = reader;
		this.requireNoEviction = requireNoEviction;
		this.timeout = timeout;
		this.retryInterval = retryInterval;
	}

	@Override
	public void afterPropertiesSet() {
		RedisEvictionPolicy policy;
		try {
			policy = readWithinTimeout();
		}
		catch (RuntimeException ex) {
			notChecked(ex);
			retryInBackground();
			return;
		}
		if (!policy.isNoEviction() && this.requireNoEviction) {
			throw new RedisEvictionPolicyException(policy);
		}
		warnIfEvicting(policy, " Set modelgate.idempotency.redis.require-noeviction=true to refuse to start instead.");
	}

	private void warnIfEvicting(RedisEvictionPolicy policy, String advice) {
		if (policy.isNoEviction()) {
			return;
		}
		String readable = policy.isKnown() ? ""
				: " To let it be checked, allow the Redis user CONFIG GET or INFO (ACL +config|get or +info).";
		logger.warn(RedisEvictionRisk.of(policy) + " " + RedisEvictionRisk.FIX + readable + advice);
	}

	/**
	 * Asks again until Redis answers, on a daemon thread of its own, each time bounded by the timeout as
	 * at start-up; a policy that evicts gets its WARN then.
	 */
	private void retryInBackground() {
		ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "modelgate-idempotency-eviction-retry");
			thread.setDaemon(true);
			return thread;
		});
		this.retries = executor;
		executor.schedule(new Runnable() {

			@Override
			public void run() {
				RedisEvictionPolicy policy;
				try {
					policy = readWithinTimeout();
				}
				catch (RuntimeException ex) {
					if (!executor.isShutdown()) {
						executor.schedule(this, RedisEvictionPolicyGuard.this.retryInterval.toNanos(),
								TimeUnit.NANOSECONDS);
					}
					return;
				}
				executor.shutdown();
				warnIfEvicting(policy, (RedisEvictionPolicyGuard.this.requireNoEviction)
						? " modelgate.idempotency.redis.require-noeviction=true could not be enforced: the "
								+ "application started before Redis answered."
						: "");
			}

		}, this.retryInterval.toNanos(), TimeUnit.NANOSECONDS);
	}

	@Override
	public void destroy() {
		ScheduledExecutorService executor = this.retries;
		if (executor != null) {
			executor.shutdownNow();
		}
	}

	private void notChecked(RuntimeException ex) {
		String message = "The maxmemory-policy of the Redis that keeps the idempotency records could not be "
				+ "checked at start-up, Redis did not answer (" + ex.getClass().getSimpleName() + ": " + ex.getMessage()
				+ "). The application starts all the same "
				+ "(keyed requests get 503 until Redis answers); the check is tried again in the background, and "
				+ "the idempotency health shows the policy once Redis answers.";
		if (this.requireNoEviction) {
			logger.warn(message + " modelgate.idempotency.redis.require-noeviction=true is not enforced for this "
					+ "start: make sure that Redis has maxmemory-policy noeviction.");
		}
		else {
			logger.info(message);
		}
	}

	/** On a thread of its own, so that a Redis that hangs delays start-up by the timeout only. */
	private RedisEvictionPolicy readWithinTimeout() {
		FutureTask<RedisEvictionPolicy> task = new FutureTask<>(this.reader::read);
		Thread thread = new Thread(task, "modelgate-idempotency-eviction-check");
		thread.setDaemon(true);
		thread.start();
		try {
			return task.get(this.timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			task.cancel(true);
			throw new QueryTimeoutException("no answer within " + this.timeout, ex);
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof RuntimeException failure) ? failure
					: new IllegalStateException(ex.getCause());
		}
		catch (InterruptedException ex) {
			task.cancel(true);
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
	}

}
