package dev.modelgate.idempotency.core.internal;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StoredOutcomeFilter;

/**
 * An {@link IdempotencyStore} that passes each outcome it completes through a
 * {@link StoredOutcomeFilter} and keeps what the filter returns; everything else is the delegate's.
 */
public final class FilteringIdempotencyStore extends ForwardingIdempotencyStore {

	private final StoredOutcomeFilter filter;

	/**
	 * @param delegate the store that keeps what the filter returns
	 * @param filter chooses what is kept
	 */
	public FilteringIdempotencyStore(IdempotencyStore delegate, StoredOutcomeFilter filter) {
		super(delegate);
		this.filter = filter;
	}

	@Override
	IdempotencyStore withDelegate(IdempotencyStore delegate) {
		return new FilteringIdempotencyStore(delegate, this.filter);
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
		return this.delegate.complete(scope, token, (outcome != null) ? this.filter.filter(outcome) : null, ttl);
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl,
			SpentMarker marker) {
		return this.delegate.complete(scope, token, (outcome != null) ? this.filter.filter(outcome) : null, ttl,
				marker);
	}

}
