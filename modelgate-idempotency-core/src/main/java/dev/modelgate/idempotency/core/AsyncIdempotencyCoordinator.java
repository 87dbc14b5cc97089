package dev.modelgate.idempotency.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.internal.AsyncHeartbeatLease;
import dev.modelgate.idempotency.core.internal.AsyncSettlement;

/**
 * Drives the state machine for one attempt without blocking, as {@link IdempotencyCoordinator} does
 * with blocking calls: asks an {@link AsyncIdempotencyStore} to {@code begin}, asks again while a
 * running duplicate is waited for (the same bounded polling), and hands the caller an
 * {@link AsyncLease} that keeps itself alive until the caller settles it ({@link AsyncSettlement}).
 * Knows nothing of HTTP or Reactor: the reactive web adapters only turn its futures into their types.
 *
 * <p>A future completes on the thread that answered last (the store's, or the delayer's after a
 * pause); callers that must continue elsewhere move on themselves.
 */
public final class AsyncIdempotencyCoordinator {

	private final AsyncIdempotencyStore store;

	private final Delayer delayer;

	/**
	 * @param store where records live, asked without blocking
	 * @param delayer times polls and lease renewals
	 */
	public AsyncIdempotencyCoordinator(AsyncIdempotencyStore store, Delayer delayer) {
		this.store = store;
		this.delayer = delayer;
		LeaseTokens.seed();
	}

	/**
	 * Begins an attempt.
	 * @param scope the scope hash
	 * @param fingerprint the request fingerprint
	 * @param leaseTtl how long the lease lasts between heartbeats
	 * @param waitTimeout how long to wait for a running duplicate to finish; zero answers
	 * {@code IN_PROGRESS} at once
	 * @return the outcome, or an {@link IdempotencyStoreException} when the store cannot be asked; when
	 * {@code ACQUIRED} the caller must settle the attempt's lease
	 */
	public CompletableFuture<Attempt> begin(String scope, String fingerprint, Duration leaseTtl, Duration waitTimeout) {
		String token = LeaseTokens.next();
		long deadline = System.nanoTime() + waitTimeout.toNanos();
		return ask(scope, fingerprint, token, leaseTtl, deadline, BeginPolling.FIRST_PAUSE, false);
	}

	private CompletableFuture<Attempt> ask(String scope, String fingerprint, String token, Duration leaseTtl,
			long deadline, Duration pause, boolean waited) {
		return call(scope, fingerprint, token, leaseTtl).thenCompose((result) -> {
			if (result.outcome() == BeginResult.Outcome.ACQUIRED) {
				return CompletableFuture.completedFuture(
						new Attempt(result, waited, new AsyncHeartbeatLease(this.store, this.delayer, scope, token, leaseTtl)));
			}
			long remaining = deadline - System.nanoTime();
			if (BeginPolling.isFinal(result, remaining)) {
				return CompletableFuture.completedFuture(new Attempt(result, waited, null));
			}
			CompletableFuture<Attempt> next = new CompletableFuture<>();
			this.delayer.schedule(() -> ask(scope, fingerprint, token, leaseTtl, deadline, BeginPolling.next(pause), true)
				.whenComplete((attempt, failure) -> {
					if (failure != null) {
						next.completeExceptionally(failure);
					}
					else {
						next.complete(attempt);
					}
				}), Duration.ofNanos(Math.min(pause.toNanos(), remaining)));
			return next;
		});
	}

	/** One {@code begin}; any failure, thrown or in the future, becomes an {@link IdempotencyStoreException}. */
	private CompletableFuture<BeginResult> call(String scope, String fingerprint, String token, Duration leaseTtl) {
		CompletableFuture<BeginResult> answer;
		try {
			answer = this.store.begin(scope, fingerprint, token, leaseTtl);
		}
		catch (RuntimeException ex) {
			answer = CompletableFuture.failedFuture(ex);
		}
		return answer.handle((result, failure) -> {
			if (failure == null) {
				return result;
			}
			Throwable cause = (failure instanceof CompletionException && failure.getCause() != null)
					? failure.getCause() : failure;
			throw (cause instanceof IdempotencyStoreException storeFailure) ? storeFailure
					: new IdempotencyStoreException("begin failed", cause);
		});
	}

	/**
	 * The answer to {@link #begin}.
	 *
	 * @param result what the store answered last
	 * @param waited whether the caller waited for a running duplicate
	 * @param lease the held lease when {@code ACQUIRED}, else {@code null}
	 */
	public record Attempt(BeginResult result, boolean waited, @Nullable AsyncLease lease) {

		/** {@return the outcome of the store's last answer} */
		public BeginResult.Outcome outcome() {
			return this.result.outcome();
		}

	}

}
