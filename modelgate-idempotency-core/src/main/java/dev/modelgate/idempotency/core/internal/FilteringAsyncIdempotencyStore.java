package dev.modelgate.idempotency.core.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StoredOutcomeFilter;

/**
 * {@link FilteringIdempotencyStore} for an {@link AsyncIdempotencyStore}: the filter runs on the calling
 * thread before the call, and a filter that throws fails the future instead of the call.
 */
public final class FilteringAsyncIdempotencyStore extends ForwardingAsyncIdempotencyStore {

	private final StoredOutcomeFilter filter;

	/**
	 * @param delegate the store that keeps what the filter returns
	 * @param filter chooses what is kept
	 */
	public FilteringAsyncIdempotencyStore(AsyncIdempotencyStore delegate, StoredOutcomeFilter filter) {
		super(delegate);
		this.filter = filter;
	}

	@Override
	public CompletableFuture<Boolean> complete(String scope, String token, @Nullable StoredOutcome outcome,
			Duration ttl) {
		return failingTheFuture(
				() -> this.delegate.complete(scope, token, (outcome != null) ? this.filter.filter(outcome) : null, ttl));
	}

	@Override
	public CompletableFuture<Boolean> complete(String scope, String token, @Nullable StoredOutcome outcome,
			Duration ttl, SpentMarker marker) {
		return failingTheFuture(() -> this.delegate.complete(scope, token,
				(outcome != null) ? this.filter.filter(outcome) : null, ttl, marker));
	}

}
