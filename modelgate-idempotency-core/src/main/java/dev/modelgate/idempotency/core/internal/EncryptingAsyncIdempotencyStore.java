package dev.modelgate.idempotency.core.internal;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamSlice;

/**
 * {@link EncryptingIdempotencyStore} for an {@link AsyncIdempotencyStore}: sealing runs on the calling
 * thread before the call, opening on the thread that completes the answer. A failure to seal fails
 * the future, as the store's contract asks, instead of throwing from the call.
 */
public final class EncryptingAsyncIdempotencyStore extends ForwardingAsyncIdempotencyStore {

	private final RecordSeal seal;

	/**
	 * @param delegate the store that keeps the sealed bytes
	 * @param seal seals and opens them
	 */
	public EncryptingAsyncIdempotencyStore(AsyncIdempotencyStore delegate, RecordSeal seal) {
		super(delegate);
		this.seal = seal;
	}

	@Override
	public CompletableFuture<BeginResult> begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		return this.delegate.begin(scope, fingerprint, token, leaseTtl)
			.thenApply((result) -> this.seal.opened(scope, result));
	}

	@Override
	public CompletableFuture<Boolean> complete(String scope, String token, @Nullable StoredOutcome outcome,
			Duration ttl) {
		return failingTheFuture(() -> this.delegate.complete(scope, token, this.seal.sealed(scope, outcome), ttl));
	}

	@Override
	public CompletableFuture<Boolean> complete(String scope, String token, @Nullable StoredOutcome outcome,
			Duration ttl, SpentMarker marker) {
		return failingTheFuture(
				() -> this.delegate.complete(scope, token, this.seal.sealed(scope, outcome), ttl, marker));
	}

	@Override
	public CompletableFuture<Boolean> openStream(String scope, String token, byte[] head) {
		return failingTheFuture(() -> this.delegate.openStream(scope, token, this.seal.sealedHead(scope, head)));
	}

	@Override
	public CompletableFuture<Boolean> appendEvents(String scope, String token, long fromSequence,
			List<byte[]> events) {
		return failingTheFuture(() -> this.delegate.appendEvents(scope, token, fromSequence,
				this.seal.sealedEvents(scope, fromSequence, events)));
	}

	@Override
	public CompletableFuture<Optional<StreamSlice>> readStream(String scope, long afterSequence, int max) {
		return this.delegate.readStream(scope, afterSequence, max)
			.thenApply((found) -> found.map((slice) -> this.seal.opened(scope, slice)));
	}

}
