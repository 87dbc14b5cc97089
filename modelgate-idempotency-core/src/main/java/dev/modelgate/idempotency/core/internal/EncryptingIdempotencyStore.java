package dev.modelgate.idempotency.core.internal;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamSlice;

/**
 * An {@link IdempotencyStore} that keeps outcomes, stream heads and stream events sealed by a
 * {@link RecordCipher}: what it writes is sealed, what it reads is opened. The rest of a record
 * (fingerprint, state, token) is the delegate's, unchanged. The decisions on what cannot be opened
 * are {@link RecordSeal}'s, shared with the asynchronous store.
 */
public final class EncryptingIdempotencyStore extends ForwardingIdempotencyStore {

	private final RecordSeal seal;

	/**
	 * @param delegate the store that keeps the sealed bytes
	 * @param seal seals and opens them
	 */
	public EncryptingIdempotencyStore(IdempotencyStore delegate, RecordSeal seal) {
		super(delegate);
		this.seal = seal;
	}

	@Override
	IdempotencyStore withDelegate(IdempotencyStore delegate) {
		return new EncryptingIdempotencyStore(delegate, this.seal);
	}

	@Override
	public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		return this.seal.opened(scope, this.delegate.begin(scope, fingerprint, token, leaseTtl));
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
		return this.delegate.complete(scope, token, this.seal.sealed(scope, outcome), ttl);
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl,
			SpentMarker marker) {
		return this.delegate.complete(scope, token, this.seal.sealed(scope, outcome), ttl, marker);
	}

	@Override
	public boolean openStream(String scope, String token, byte[] head) {
		return this.delegate.openStream(scope, token, this.seal.sealedHead(scope, head));
	}

	@Override
	public boolean appendEvents(String scope, String token, long fromSequence, List<byte[]> events) {
		return this.delegate.appendEvents(scope, token, fromSequence, this.seal.sealedEvents(scope, fromSequence, events));
	}

	@Override
	public Optional<StreamSlice> readStream(String scope, long afterSequence, int max) {
		return this.delegate.readStream(scope, afterSequence, max).map((slice) -> this.seal.opened(scope, slice));
	}

}
