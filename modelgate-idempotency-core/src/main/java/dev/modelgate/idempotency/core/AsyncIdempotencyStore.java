package dev.modelgate.idempotency.core;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The {@link IdempotencyStore} transitions for callers that must not block a thread while the store
 * answers (WebFlux, Spring Cloud Gateway): the same records, the same atomicity and the same answers,
 * each delivered through a {@link CompletableFuture}. Core stays free of Reactor; adapters turn the
 * futures into whatever their framework uses.
 *
 * <p>Every method returns at once. A store that cannot be asked completes the future exceptionally
 * with an {@link IdempotencyStoreException}, never with a made-up answer, and never throws it from
 * the call itself. Implementations must not block the calling thread; a store that can only block
 * is adapted by running its calls on a bounded pool of its own.
 *
 * <p>Each method's meaning, arguments and answers are those of the {@link IdempotencyStore} method of
 * the same name. Streams ({@link #openStream}, {@link #appendEvents}, {@link #completeStream},
 * {@link #readStream}) have defaults that fail with {@link UnsupportedOperationException}, as the
 * blocking store's do.
 */
public interface AsyncIdempotencyStore {

	/** As {@link IdempotencyStore#begin}. */
	CompletableFuture<BeginResult> begin(String scope, String fingerprint, String token, Duration leaseTtl);

	/** As {@link IdempotencyStore#renew}. */
	CompletableFuture<Boolean> renew(String scope, String token, Duration leaseTtl);

	/** As {@link IdempotencyStore#complete}. */
	CompletableFuture<Boolean> complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl);

	/**
	 * As {@link IdempotencyStore#complete(String, String, StoredOutcome, Duration, SpentMarker)}, whose
	 * default this shares: the marker is ignored unless the store keeps markers.
	 */
	default CompletableFuture<Boolean> complete(String scope, String token, @Nullable StoredOutcome outcome,
			Duration ttl, SpentMarker marker) {
		return complete(scope, token, outcome, ttl);
	}

	/** As {@link IdempotencyStore#release}. */
	CompletableFuture<Boolean> release(String scope, String token);

	/** As {@link IdempotencyStore#openStream}. */
	default CompletableFuture<Boolean> openStream(String scope, String token, byte[] head) {
		return CompletableFuture.failedFuture(
				new UnsupportedOperationException(getClass().getName() + " does not record streams"));
	}

	/** As {@link IdempotencyStore#appendEvents}. */
	default CompletableFuture<Boolean> appendEvents(String scope, String token, long fromSequence,
			List<byte[]> events) {
		return CompletableFuture.failedFuture(
				new UnsupportedOperationException(getClass().getName() + " does not record streams"));
	}

	/** As {@link IdempotencyStore#completeStream}. */
	default CompletableFuture<Boolean> completeStream(String scope, String token, Duration ttl) {
		return CompletableFuture.failedFuture(
				new UnsupportedOperationException(getClass().getName() + " does not record streams"));
	}

	/** As {@link IdempotencyStore#readStream}. */
	default CompletableFuture<Optional<StreamSlice>> readStream(String scope, long afterSequence, int max) {
		return CompletableFuture.failedFuture(
				new UnsupportedOperationException(getClass().getName() + " does not record streams"));
	}

}
