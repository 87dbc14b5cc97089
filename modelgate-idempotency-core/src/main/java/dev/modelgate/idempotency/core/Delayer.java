package dev.modelgate.idempotency.core;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a task later without blocking the caller: what times an asynchronous attempt's polls and
 * lease renewals. A reactive adapter hands in its own scheduler (Reactor's), so that timers run
 * where its threads are watched; anything else can use a {@link ScheduledExecutorService}.
 */
@FunctionalInterface
public interface Delayer {

	/**
	 * Runs {@code task} once, after {@code delay}.
	 * @param task what to run
	 * @param delay how long from now
	 * @return cancels the task if it has not started
	 */
	Runnable schedule(Runnable task, Duration delay);

	/**
	 * {@return a delayer over {@code executor}}
	 * @param executor runs the tasks
	 */
	static Delayer of(ScheduledExecutorService executor) {
		return (task, delay) -> {
			ScheduledFuture<?> scheduled = executor.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
			return () -> scheduled.cancel(false);
		};
	}

}
