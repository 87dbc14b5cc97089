package dev.modelgate.idempotency.core.internal;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyRecord;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamSlice;

/**
 * An {@link IdempotencyStore} that passes every call to another: a decorator overrides only the calls
 * it changes, and {@link #withDelegate} so that {@link #forHolder} keeps it around the holder's store.
 */
abstract class ForwardingIdempotencyStore implements IdempotencyStore {

	final IdempotencyStore delegate;

	ForwardingIdempotencyStore(IdempotencyStore delegate) {
		this.delegate = delegate;
	}

	/** {@return this decorator around another store} */
	abstract IdempotencyStore withDelegate(IdempotencyStore delegate);

	@Override
	public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		return this.delegate.begin(scope, fingerprint, token, leaseTtl);
	}

	@Override
	public boolean renew(String scope, String token, Duration leaseTtl) {
		return this.delegate.renew(scope, token, leaseTtl);
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
		return this.delegate.complete(scope, token, outcome, ttl);
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl,
			SpentMarker marker) {
		return this.delegate.complete(scope, token, outcome, ttl, marker);
	}

	@Override
	public boolean release(String scope, String token) {
		return this.delegate.release(scope, token);
	}

	@Override
	public Optional<IdempotencyRecord> find(String scope) {
		return this.delegate.find(scope);
	}

	@Override
	public boolean delete(String scope) {
		return this.delegate.delete(scope);
	}

	@Override
	public boolean openStream(String scope, String token, byte[] head) {
		return this.delegate.openStream(scope, token, head);
	}

	@Override
	public boolean appendEvents(String scope, String token, long fromSequence, List<byte[]> events) {
		return this.delegate.appendEvents(scope, token, fromSequence, events);
	}

	@Override
	public boolean completeStream(String scope, String token, Duration ttl) {
		return this.delegate.completeStream(scope, token, ttl);
	}

	@Override
	public Optional<StreamSlice> readStream(String scope, long afterSequence, int max) {
		return this.delegate.readStream(scope, afterSequence, max);
	}

	@Override
	public String type() {
		return this.delegate.type();
	}

	@Override
	public @Nullable Duration callTimeLimit() {
		return this.delegate.callTimeLimit();
	}

	@Override
	public IdempotencyStore forHolder(String scope) {
		IdempotencyStore holder = this.delegate.forHolder(scope);
		return (holder == this.delegate) ? this : withDelegate(holder);
	}

	@Override
	public String toString() {
		return getClass().getSimpleName() + "[" + this.delegate + "]";
	}

}
