package dev.modelgate.idempotency.test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamSlice;

/** Runs a blocking store's calls on a pool, so that the asynchronous contracts have a store to run on here. */
final class PooledAsyncStore implements AsyncIdempotencyStore {

	private final IdempotencyStore store;

	private final Executor pool;

	PooledAsyncStore(IdempotencyStore store, Executor pool) {
		this.store = store;
		this.pool = pool;
	}

	@Override
	public CompletableFuture<BeginResult> begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		return run(() -> this.store.begin(scope, fingerprint, token, leaseTtl));
	}

	@Override
	public CompletableFuture<Boolean> renew(String scope, String token, Duration leaseTtl) {
		return run(() -> this.store.renew(scope, token, leaseTtl));
	}

	@Override
	public CompletableFuture<Boolean> complete(String scope, String token, @Nullable StoredOutcome outcome,
			Duration ttl) {
		return run(() -> this.store.complete(scope, token, outcome, ttl));
	}

	@Override
	public CompletableFuture<Boolean> complete(String scope, String token, @Nullable StoredOutcome outcome,
			Duration ttl, SpentMarker marker) {
		return run(() -> this.store.complete(scope, token, outcome, ttl, marker));
	}

	@Override
	public CompletableFuture<Boolean> release(String scope, String token) {
		return run(() -> this.store.release(scope, token));
	}

	@Override
	public CompletableFuture<Boolean> openStream(String scope, String token, byte[] head) {
		return run(() -> this.store.openStream(scope, token, head));
	}

	@Override
	public CompletableFuture<Boolean> appendEvents(String scope, String token, long fromSequence,
			List<byte[]> events) {
		return run(() -> this.store.appendEvents(scope, token, fromSequence, events));
	}

	@Override
	public CompletableFuture<Boolean> completeStream(String scope, String token, Duration ttl) {
		return run(() -> this.store.completeStream(scope, token, ttl));
	}

	@Override
	public CompletableFuture<Optional<StreamSlice>> readStream(String scope, long afterSequence, int max) {
		return run(() -> this.store.readStream(scope, afterSequence, max));
	}

	private <T> CompletableFuture<T> run(Supplier<T> call) {
		return CompletableFuture.supplyAsync(call, this.pool);
	}

}
