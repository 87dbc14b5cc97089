package dev.modelgate.idempotency.core.internal;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamSlice;

/**
 * An {@link AsyncIdempotencyStore} that passes every call to another: a decorator overrides only the
 * calls it changes.
 */
abstract class ForwardingAsyncIdempotencyStore implements AsyncIdempotencyStore {

	final AsyncIdempotencyStore delegate;

	ForwardingAsyncIdempotencyStore(AsyncIdempotencyStore delegate) {
		this.delegate = delegate;
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
		return this.delegate.complete(scope, token, outcome, ttl);
	}

	@Override
	public CompletableFuture<Boolean> complete(String scope, String token, @Nullable StoredOutcome outcome,
			Duration ttl, SpentMarker marker) {
		return this.delegate.complete(scope, token, outcome, ttl, marker);
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
		return getClass().getSimpleName() + "[" + this.delegate + "]";
	}

	/**
	 * {@return the call's future, or a failed one when the work before the call throws} The store's
	 * contract answers failures through the future.
	 */
	static <T> CompletableFuture<T> failingTheFuture(Supplier<CompletableFuture<T>> call) {
		try {
			return call.get();
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

}
