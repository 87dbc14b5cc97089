package dev.modelgate.idempotency.web.reactive;

import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

import dev.modelgate.idempotency.core.AsyncLease;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.internal.AsyncSettlement;

/**
 * The core's {@link AsyncSettlement} as Reactor types: each answer goes on on one of Reactor's
 * threads ({@link StoreAnswers}). Subscribing does not start a store call (it already runs) and
 * cancelling does not stop it: a client that goes away never cancels the recording or the release.
 */
final class ReactiveSettlement {

	private final AsyncSettlement settlement;

	private final Scheduler scheduler;

	ReactiveSettlement(AsyncSettlement settlement, Scheduler scheduler) {
		this.settlement = settlement;
		this.scheduler = scheduler;
	}

	String scope() {
		return this.settlement.scope();
	}

	AsyncLease lease() {
		return this.settlement.lease();
	}

	boolean isSettled() {
		return this.settlement.isSettled();
	}

	/** The run's answer is a stream, which settles the attempt itself, whatever becomes of its client. */
	void streaming() {
		this.settlement.streaming();
	}

	boolean isStreaming() {
		return this.settlement.isStreaming();
	}

	/** Releases the key of a stream that failed before its end. */
	Mono<Void> releaseStream(String warning) {
		return release(warning);
	}

	/**
	 * The store's answer itself, for a caller that goes on at once when it is already there; see
	 * {@link AsyncSettlement#record}.
	 */
	CompletableFuture<Boolean> recording(@Nullable StoredOutcome outcome) {
		return this.settlement.record(outcome);
	}

	/** The store's answer itself; see {@link AsyncSettlement#release}. */
	CompletableFuture<?> releasing(@Nullable String warning) {
		return this.settlement.release(warning);
	}

	/** An answer of {@link #recording} or {@link #releasing}, going on on one of Reactor's threads. */
	<T> Mono<T> answer(CompletableFuture<T> answer) {
		return StoreAnswers.of(answer, this.scheduler);
	}

	/** {@return whether the outcome was recorded; see {@link AsyncSettlement#record}} */
	Mono<Boolean> record(@Nullable StoredOutcome outcome) {
		return answer(recording(outcome));
	}

	/** {@return whether the stream was recorded; see {@link AsyncSettlement#recordStream}} */
	Mono<Boolean> recordStream() {
		return StoreAnswers.of(this.settlement.recordStream(), this.scheduler);
	}

	/** See {@link AsyncSettlement#release}. */
	Mono<Void> release(@Nullable String warning) {
		return answer(releasing(warning)).then();
	}

	/** See {@link AsyncSettlement#abandon}. */
	void abandon(String warning) {
		this.settlement.abandon(warning);
	}

}
