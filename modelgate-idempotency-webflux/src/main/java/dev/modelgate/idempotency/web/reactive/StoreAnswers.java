package dev.modelgate.idempotency.web.reactive;

import java.util.concurrent.CompletableFuture;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * A store's answer as a {@code Mono} that goes on on one of Reactor's threads. An answer that is
 * already there (the memory store answers on the caller's thread) goes on where it is; one that
 * comes later comes on the store's thread (the blocking-store adapter's pool, a Redis client's event
 * loop), which is left at once, so that the pool only runs store calls and what follows (the handler,
 * the response) runs where BlockHound watches it. Cancelling the {@code Mono} never cancels the call.
 */
final class StoreAnswers {

	private StoreAnswers() {
	}

	static <T> Mono<T> of(CompletableFuture<T> answer, Scheduler scheduler) {
		Mono<T> mono = Mono.fromFuture(answer, true);
		return answer.isDone() ? mono : mono.publishOn(scheduler);
	}

}
