package dev.modelgate.idempotency.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

/**
 * The non-blocking {@link Lease}, as {@link AsyncIdempotencyCoordinator#begin} hands it out: the same
 * calls, each answered by a future that fails with {@link IdempotencyStoreException} when the store
 * cannot be asked.
 */
public interface AsyncLease {

	/** {@return the hashed scope the lease holds} */
	String scope();

	/** {@return whether a renewal found that this attempt no longer holds the record} */
	boolean isLost();

	/** {@return the attempt's short public name, as in {@link Lease#attemptTag()}} */
	String attemptTag();

	/** {@return this attempt, as a reactive engine puts it in Reactor's context ({@link IdempotencyContext#CONTEXT_KEY})} */
	IdempotencyContext.Held held();

	/**
	 * @param outcome what to replay, or {@code null} when the result is not kept
	 * @param ttl how long the record is kept
	 * @return whether the store accepted it, as {@link Lease#complete}
	 */
	CompletableFuture<Boolean> complete(@Nullable StoredOutcome outcome, Duration ttl);

	/**
	 * @param outcome what to replay, or {@code null} when the result is not kept
	 * @param ttl how long the answer is kept
	 * @param marker what stays after {@code ttl}, or {@code null} for nothing
	 * @return whether the store accepted it, as {@link Lease#complete(StoredOutcome, Duration, SpentMarker)}
	 */
	default CompletableFuture<Boolean> complete(@Nullable StoredOutcome outcome, Duration ttl,
			@Nullable SpentMarker marker) {
		return complete(outcome, ttl);
	}

	/** @return whether the store accepted it, as {@link Lease#release()} */
	CompletableFuture<Boolean> release();

	/**
	 * @param head the stream's head
	 * @return whether the store accepted it, as {@link Lease#openStream}
	 */
	CompletableFuture<Boolean> openStream(byte[] head);

	/**
	 * @param fromSequence the sequence of the first event
	 * @param events the events' bytes
	 * @return whether the store accepted them, as {@link Lease#appendEvents}
	 */
	CompletableFuture<Boolean> appendEvents(long fromSequence, List<byte[]> events);

	/**
	 * @param ttl how long the stream is kept
	 * @return whether the store accepted it, as {@link Lease#completeStream}
	 */
	CompletableFuture<Boolean> completeStream(Duration ttl);

	/** Stops renewing without touching the record, as {@link Lease#abandon()}. */
	void abandon();

}
