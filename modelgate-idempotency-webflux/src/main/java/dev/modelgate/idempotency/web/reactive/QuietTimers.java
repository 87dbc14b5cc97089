package dev.modelgate.idempotency.web.reactive;

import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;

import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Keeps a Reactor scheduler's workers from being woken by every lease: a worker's
 * {@code ScheduledThreadPoolExecutor} signals its thread whenever a task becomes the earliest in its
 * queue, which with nothing else queued is every lease's first renewal. A no-op every second on each
 * worker is always earlier. Kept because it pays: without it a new key cost 1.6x as much app CPU on
 * WebFlux at concurrency 16 (dev/benchmarks-history.md).
 */
final class QuietTimers {

	private static final Set<Scheduler> QUIETED = Collections.newSetFromMap(new WeakHashMap<>());

	private QuietTimers() {
	}

	/**
	 * Gives {@code scheduler} its no-op beats, once per scheduler, one per worker of Reactor's default
	 * pool size (the parallel scheduler hands tasks to its workers in turn).
	 * @param scheduler the scheduler the engine's timers run on
	 * @return the same scheduler
	 */
	static Scheduler of(Scheduler scheduler) {
		synchronized (QUIETED) {
			if (QUIETED.add(scheduler)) {
				for (int i = 0; i < Schedulers.DEFAULT_POOL_SIZE; i++) {
					scheduler.schedulePeriodically(QuietTimers::beat, 1, 1, TimeUnit.SECONDS);
				}
			}
		}
		return scheduler;
	}

	private static void beat() {
	}

}
