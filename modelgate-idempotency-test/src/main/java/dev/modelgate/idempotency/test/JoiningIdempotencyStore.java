package dev.modelgate.idempotency.test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyRecord;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamSlice;

/**
 * An {@link AsyncIdempotencyStore} seen through the blocking {@link IdempotencyStore} interface, so
 * that the blocking contracts run their cases on it: each transition waits for its future, and a
 * future that failed throws what it failed with. {@code find} and {@code delete} are not part of the
 * asynchronous interface (they are the operators'), so they go to a blocking store on the same records.
 */
final class JoiningIdempotencyStore implements IdempotencyStore {

	/** Longer than any store's own timeout: a future that takes this long is a failed test, not a slow one. */
	private static final Duration WAIT = Duration.ofSeconds(30);

	private final AsyncIdempotencyStore store;

	private final @Nullable IdempotencyStore operatorStore;

	JoiningIdempotencyStore(AsyncIdempotencyStore store, @Nullable IdempotencyStore operatorStore) {
		this.store = store;
		this.operatorStore = operatorStore;
	}

	@Override
	public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		return join(this.store.begin(scope, fingerprint, token, leaseTtl));
	}

	@Override
	public boolean renew(String scope, String token, Duration leaseTtl) {
		return join(this.store.renew(scope, token, leaseTtl));
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
		return join(this.store.complete(scope, token, outcome, ttl));
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl,
			SpentMarker marker) {
		return join(this.store.complete(scope, token, outcome, ttl, marker));
	}

	@Override
	public boolean release(String scope, String token) {
		return join(this.store.release(scope, token));
	}

	@Override
	public Optional<IdempotencyRecord> find(String scope) {
		return operatorStore().find(scope);
	}

	@Override
	public boolean delete(String scope) {
		return operatorStore().delete(scope);
	}

	@Override
	public boolean openStream(String scope, String token, byte[] head) {
		return join(this.store.openStream(scope, token, head));
	}

	@Override
	public boolean appendEvents(String scope, String token, long fromSequence, List<byte[]> events) {
		return join(this.store.appendEvents(scope, token, fromSequence, events));
	}

	@Override
	public boolean completeStream(String scope, String token, Duration ttl) {
		return join(this.store.completeStream(scope, token, ttl));
	}

	@Override
	public Optional<StreamSlice> readStream(String scope, long afterSequence, int max) {
		return join(this.store.readStream(scope, afterSequence, max));
	}

	private IdempotencyStore operatorStore() {
		if (this.operatorStore == null) {
			throw new UnsupportedOperationException("find and delete need a blocking store on the same records");
		}
		return this.operatorStore;
	}

	/**
	 * Waits for the future and answers its value, or throws what it failed with.
	 * @throws AssertionError when it does not complete within 30 seconds
	 */
	static <T> T join(CompletableFuture<T> future) {
		try {
			return future.get(WAIT.toSeconds(), TimeUnit.SECONDS);
		}
		catch (ExecutionException | CompletionException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw new IllegalStateException(cause);
		}
		catch (TimeoutException ex) {
			throw new AssertionError("The store's future did not complete within " + WAIT, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
