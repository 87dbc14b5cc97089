package dev.modelgate.idempotency.core.internal;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StoredOutcomeFilter;
import dev.modelgate.idempotency.core.StreamSlice;

/**
 * {@link FilteringIdempotencyStore} for an {@link AsyncIdempotencyStore}: the filter runs on the calling
 * thread before the call, and a filter that throws fails the future instead of the call.
 */
public final class FilteringAsyncIdempotencyStore implements AsyncIdempotencyStore {

	private final AsyncIdempotencyStore delegate;

	private final StoredOutcomeFilter filter;

	/**
	 * @param delegate the store that keeps what the filter returns
	 * @param filter chooses what is kept
	 */
	public FilteringAsyncIdempotencyStore(AsyncIdempotencyStore delegate, StoredOutcomeFilter filter) {
		this.delegate = delegate;
		this.filter = filter;
	}

	@Override
	public CompletableFuture<BeginResult> begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		return this.delegate.begin(scope, fingerprint, token, leaseTtl);
	}

	@Override
	public CompletableFuture<Boolean> renew(String scope, String token, Duration leaseTtl) {
		return this.delegate.renew(scope, token, leaseTtl);
	}

	@Override
	public CompletableFuture<Boolean> complete(String scope, String token, @Nullable StoredOutcome outcome,
			Duration ttl) {
		return filtering(() -> this.delegate.complete(scope, token, (outcome != null) ? this.filter.filter(outcome) : null, ttl));
	}

	@Override
	public CompletableFuture<Boolean> release(String scope, String token) {
		return this.delegate.release(scope, token);
	}

	@Override
	public CompletableFuture<Boolean> openStream(String scope, String token, byte[] head) {
		return this.delegate.openStream(scope, token, head);
	}

	@Override
	public CompletableFuture<Boolean> appendEvents(String scope, String token, long fromSequence,
			List<byte[]> events) {
		return this.delegate.appendEvents(scope, token, fromSequence, events);
	}

	@Override
	public CompletableFuture<Boolean> completeStream(String scope, String token, Duration ttl) {
		return this.delegate.completeStream(scope, token, ttl);
	}

	@Override
	public CompletableFuture<Optional<StreamSlice>> readStream(String scope, long afterSequence, int max) {
		return this.delegate.readStream(scope, afterSequence, max);
	}

	@Override
	public String toString() {
		return "FilteringAsyncIdempotencyStore[" + this.delegate + "]";
	}

	private static <T> CompletableFuture<T> filtering(Supplier<CompletableFuture<T>> call) {
		try {
			return call.get();
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

}
