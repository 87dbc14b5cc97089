package dev.modelgate.idempotency.core;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.internal.FilteringAsyncIdempotencyStore;
import dev.modelgate.idempotency.core.internal.FilteringIdempotencyStore;

/**
 * Chooses what the store keeps of an outcome, so that headers or body fields that must not be kept
 * (personal data, usage figures, trace ids) are left out: applied to every outcome as it is
 * {@linkplain IdempotencyStore#complete completed}, before it is encrypted and stored. A replay then
 * returns what the filter returned, not what the first client got: a response without the headers
 * and fields left out, with the status and the rest of the body byte for byte.
 *
 * <p>A response ({@link StoredOutcome.Kind#RESPONSE}) is in {@code HttpResponseRecord}'s format (the
 * web module's): decode it with {@code HttpResponseRecord.decode(outcome)}, and write what is kept with
 * {@code HttpResponseRecord.encode(status, headers, body, bodyLength)}. Other kinds are a template's
 * value as its codec wrote it, a recorded failure, or nothing. Streams (their head and events) are not
 * passed through it: they are kept as they were sent.
 *
 * <p>Spring Boot applications declare a bean of this type; elsewhere, pass {@code filter::decorate} to
 * {@link IdempotencyCoordinator#create(IdempotencyStore, java.time.Duration, java.util.function.UnaryOperator)}.
 */
@FunctionalInterface
public interface StoredOutcomeFilter {

	/**
	 * {@return what to store and replay instead of {@code outcome}: {@code outcome} itself, one with
	 * headers or fields left out, or {@code null} to keep no result (the key stays spent; retries are
	 * told the result was not kept: 410 {@code idempotency_result_unavailable})}
	 * @param outcome the outcome as it would be stored
	 */
	@Nullable StoredOutcome filter(StoredOutcome outcome);

	/**
	 * {@return {@code store}, with this filter applied to each outcome it completes}
	 * @param store the store to wrap
	 */
	default IdempotencyStore decorate(IdempotencyStore store) {
		return new FilteringIdempotencyStore(store, this);
	}

	/**
	 * {@return {@code store}, with this filter applied to each outcome it completes}
	 * @param store the store to wrap
	 */
	default AsyncIdempotencyStore decorate(AsyncIdempotencyStore store) {
		return new FilteringAsyncIdempotencyStore(store, this);
	}

}
