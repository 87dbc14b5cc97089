package dev.modelgate.idempotency.core;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The right to run one attempt of a key, as {@link IdempotencyCoordinator#begin} hands it out: kept
 * alive in the background until its holder completes, releases or abandons it. If a renewal finds the
 * record gone or held by another attempt, the lease is lost: the work may still finish, but the store
 * refuses its completion.
 */
public interface Lease {

	/** {@return the hashed scope the lease holds} */
	String scope();

	/** {@return whether a renewal found that this attempt no longer holds the record} */
	boolean isLost();

	/**
	 * {@return the attempt's short public name} The ids of the events its stream records carry it
	 * ({@link StreamSlice#attemptTag()}).
	 */
	String attemptTag();

	/** {@return this attempt, as code deeper in the work finds it through {@link IdempotencyContext}} */
	IdempotencyContext.Held held();

	/**
	 * Stops renewing and records the outcome.
	 * @param outcome what to replay, or {@code null} when the result is not kept
	 * @param ttl how long the record is kept
	 * @return whether the store accepted it (false: the lease was lost to another holder)
	 * @throws IdempotencyStoreException when the store cannot be asked
	 */
	boolean complete(@Nullable StoredOutcome outcome, Duration ttl);

	/**
	 * Stops renewing and records the outcome, leaving the key spent for the marker's retention after
	 * {@code ttl} (see {@link IdempotencyStore#complete(String, String, StoredOutcome, Duration, SpentMarker)}).
	 * @param outcome what to replay, or {@code null} when the result is not kept
	 * @param ttl how long the answer is kept
	 * @param marker what stays after {@code ttl}, or {@code null} for nothing
	 * @return whether the store accepted it (false: the lease was lost to another holder)
	 * @throws IdempotencyStoreException when the store cannot be asked
	 */
	default boolean complete(@Nullable StoredOutcome outcome, Duration ttl, @Nullable SpentMarker marker) {
		return complete(outcome, ttl);
	}

	/**
	 * Marks the held record as a stream with its head (see {@link IdempotencyStore#openStream}).
	 * @param head the stream's head
	 * @return whether the store accepted it
	 * @throws IdempotencyStoreException when the store cannot be asked
	 */
	boolean openStream(byte[] head);

	/**
	 * Appends events to the held stream (see {@link IdempotencyStore#appendEvents}).
	 * @param fromSequence the sequence of the first event
	 * @param events the events' bytes
	 * @return whether the store accepted them
	 * @throws IdempotencyStoreException when the store cannot be asked
	 */
	boolean appendEvents(long fromSequence, List<byte[]> events);

	/**
	 * Stops renewing and ends the held stream normally (see {@link IdempotencyStore#completeStream}).
	 * @param ttl how long the stream is kept
	 * @return whether the store accepted it
	 * @throws IdempotencyStoreException when the store cannot be asked
	 */
	boolean completeStream(Duration ttl);

	/**
	 * Stops renewing and deletes the record so that a retry runs again.
	 * @return whether the store accepted it
	 * @throws IdempotencyStoreException when the store cannot be asked
	 */
	boolean release();

	/** Stops renewing without touching the record; it then lasts until its lease runs out. */
	void abandon();

	/**
	 * Binds this lease as the current thread's attempt (see {@link IdempotencyContext}).
	 * @return closes the binding and restores the previous one
	 */
	IdempotencyContext.Binding bindToCurrentThread();

}
