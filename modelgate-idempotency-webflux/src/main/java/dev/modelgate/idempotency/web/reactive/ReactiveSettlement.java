package dev.modelgate.idempotency.web.reactive;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

import dev.modelgate.idempotency.core.DecisionReporter;
import dev.modelgate.idempotency.core.IdempotencyOutcome;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * The end of one attempt that holds its key, as the core's {@code Settlement} ends it (the same
 * decisions, warnings and reports), over an {@link AsyncLease}. An attempt is settled once: the first
 * of record, release and abandon wins and the others do nothing.
 *
 * <p>The store call and what follows it (the WARN, the decision) hang on the store's future, not on
 * the returned {@code Mono}: a client that goes away cancels its response, never the recording or
 * the release (contract: they have their own {@code operation-timeout}).
 */
final class ReactiveSettlement {

	private static final Logger logger = LoggerFactory.getLogger(ReactiveSettlement.class);

	private final AsyncLease lease;

	private final DecisionReporter reporter;

	private final String method;

	private final String route;

	private final Duration ttl;

	private final AtomicBoolean settled = new AtomicBoolean();

	private volatile boolean streaming;

	private final Scheduler scheduler;

	ReactiveSettlement(AsyncLease lease, DecisionReporter reporter, String method, String route, Duration ttl,
			Scheduler scheduler) {
		this.scheduler = scheduler;
		this.lease = lease;
		this.reporter = reporter;
		this.method = method;
		this.route = route;
		this.ttl = ttl;
	}

	String scope() {
		return this.lease.scope();
	}

	AsyncLease lease() {
		return this.lease;
	}

	boolean isSettled() {
		return this.settled.get();
	}

	/** The run's answer is a stream, which settles the attempt itself, whatever becomes of its client. */
	void streaming() {
		this.streaming = true;
	}

	boolean isStreaming() {
		return this.streaming;
	}

	/** Releases the key of a stream that failed before its end. */
	Mono<Void> releaseStream(String warning) {
		return release(warning);
	}

	/**
	 * Records the outcome for replay, or with {@code null} that the work ran and its result is not kept.
	 * @return whether it was recorded; {@code false} too when the attempt was already settled
	 */
	Mono<Boolean> record(@Nullable StoredOutcome outcome) {
		if (!this.settled.compareAndSet(false, true)) {
			return Mono.just(false);
		}
		return settle(safely(() -> this.lease.complete(outcome, this.ttl)).handle((accepted, failure) -> {
			if (failure != null) {
				logger.warn("Could not record the outcome for idempotency scope {}; the lease will run out on its own: {}",
						scope(), describe(failure));
				decide(IdempotencyOutcome.COMPLETE_FAILED);
				return false;
			}
			if (accepted) {
				decide(IdempotencyOutcome.RECORDED);
				return true;
			}
			logger.warn("Idempotency lease for scope {} was lost before completion (another attempt took over); "
					+ "the outcome is not recorded", scope());
			decide(IdempotencyOutcome.LEASE_LOST);
			return false;
		}));
	}

	/** Ends the attempt's stream normally, so that retries replay it. */
	Mono<Boolean> recordStream() {
		if (!this.settled.compareAndSet(false, true)) {
			return Mono.just(false);
		}
		return settle(safely(() -> this.lease.completeStream(this.ttl)).handle((accepted, failure) -> {
			if (failure != null) {
				logger.warn("Could not complete the stream of idempotency scope {}; the lease will run out on its own: {}",
						scope(), describe(failure));
				decide(IdempotencyOutcome.COMPLETE_FAILED);
				return false;
			}
			if (accepted) {
				decide(IdempotencyOutcome.STREAM_RECORDED);
				return true;
			}
			logger.warn("Idempotency lease for scope {} was lost before its stream ended (another attempt took "
					+ "over); the stream is not recorded", scope());
			decide(IdempotencyOutcome.LEASE_LOST);
			return false;
		}));
	}

	/**
	 * Deletes the record so that a retry runs again.
	 * @param warning why, when it deserves a WARN, or {@code null} for an ordinary release
	 */
	Mono<Void> release(@Nullable String warning) {
		if (!this.settled.compareAndSet(false, true)) {
			return Mono.empty();
		}
		if (warning != null) {
			logger.warn("Idempotency scope {} released: {}", scope(), warning);
		}
		return settle(safely(this.lease::release).handle((released, failure) -> {
			if (failure != null) {
				logger.warn("Could not release idempotency scope {}; the lease will run out on its own: {}", scope(),
						describe(failure));
				decide(IdempotencyOutcome.RELEASE_FAILED);
			}
			else {
				decide(released ? IdempotencyOutcome.RELEASED : IdempotencyOutcome.LEASE_LOST);
			}
			return released;
		})).then();
	}

	/** Stops renewing without touching the record, which then runs out on its own. */
	void abandon(String warning) {
		if (this.settled.compareAndSet(false, true)) {
			logger.warn("Idempotency scope {} abandoned, its lease will run out: {}", scope(), warning);
			this.lease.abandon();
		}
	}

	private void decide(IdempotencyOutcome outcome) {
		this.reporter.decide(outcome, this.method, this.route, scope());
	}

	/** Subscribing does not start the call (it already runs) and cancelling does not stop it. */
	private Mono<Boolean> settle(CompletableFuture<Boolean> future) {
		return StoreAnswers.of(future, this.scheduler);
	}

	private static CompletableFuture<Boolean> safely(java.util.function.Supplier<CompletableFuture<Boolean>> call) {
		try {
			return call.get();
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	static String describe(Throwable failure) {
		Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
				: failure;
		return (cause instanceof IdempotencyStoreException storeFailure) ? storeFailure.describe() : cause.toString();
	}

}
