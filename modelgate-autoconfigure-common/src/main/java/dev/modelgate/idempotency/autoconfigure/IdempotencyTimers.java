package dev.modelgate.idempotency.autoconfigure;

import java.util.concurrent.ScheduledExecutorService;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * The idempotency filter's timers: a Spring {@link ThreadPoolTaskScheduler} whose life the application
 * context runs, held in a type of its own (as Spring's {@code DefaultSockJsSchedulerContainer} holds
 * the SockJS scheduler) so that it is never taken for the application's {@code TaskScheduler}: a bean
 * of that type would make Spring Boot back off from its own and run the application's
 * {@code @Scheduled} methods here.
 */
final class IdempotencyTimers implements InitializingBean, DisposableBean {

	private final ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();

	/** @param threadNamePrefix how the threads are named */
	IdempotencyTimers(String threadNamePrefix) {
		// Each task is short (a store read, a write that never blocks, a dispatch); two threads at least,
		// so that one slow store read never holds up every follower.
		this.scheduler.setPoolSize(Math.max(2, Runtime.getRuntime().availableProcessors()));
		this.scheduler.setThreadNamePrefix(threadNamePrefix);
		this.scheduler.setDaemon(true);
		this.scheduler.setRemoveOnCancelPolicy(true);
	}

	/** {@return the scheduler's executor} */
	ScheduledExecutorService executor() {
		return this.scheduler.getScheduledExecutor();
	}

	@Override
	public void afterPropertiesSet() {
		this.scheduler.initialize();
	}

	@Override
	public void destroy() {
		this.scheduler.destroy();
	}

}
