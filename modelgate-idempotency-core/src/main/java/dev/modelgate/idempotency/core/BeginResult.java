package dev.modelgate.idempotency.core;

import org.jspecify.annotations.Nullable;

/**
 * What the store answered to {@link IdempotencyStore#begin}.
 *
 * @param outcome the decision
 * @param stored for {@link Outcome#COMPLETED}: the stored outcome, or {@code null} when the operation
 * completed but its result was not kept
 * @param spent for {@link Outcome#SPENT}: what the store kept of the completed record
 */
public record BeginResult(Outcome outcome, @Nullable StoredOutcome stored, @Nullable SpentKey spent) {

	private static final BeginResult ACQUIRED = new BeginResult(Outcome.ACQUIRED, null);

	private static final BeginResult MISMATCH = new BeginResult(Outcome.MISMATCH, null);

	private static final BeginResult IN_PROGRESS = new BeginResult(Outcome.IN_PROGRESS, null);

	/**
	 * An answer that is not {@link Outcome#SPENT}.
	 * @param outcome the decision
	 * @param stored for {@link Outcome#COMPLETED}: the stored outcome, or {@code null}
	 */
	public BeginResult(Outcome outcome, @Nullable StoredOutcome stored) {
		this(outcome, stored, null);
	}

	/** @return the answer {@link Outcome#ACQUIRED} */
	public static BeginResult acquired() {
		return ACQUIRED;
	}

	/** @return the answer {@link Outcome#MISMATCH} */
	public static BeginResult mismatch() {
		return MISMATCH;
	}

	/** @return the answer {@link Outcome#IN_PROGRESS} */
	public static BeginResult inProgress() {
		return IN_PROGRESS;
	}

	/**
	 * @param stored the stored outcome, or {@code null} when the result was not kept
	 * @return the answer {@link Outcome#COMPLETED}
	 */
	public static BeginResult completed(@Nullable StoredOutcome stored) {
		return new BeginResult(Outcome.COMPLETED, stored);
	}

	/**
	 * @param spent what the store kept of the completed record
	 * @return the answer {@link Outcome#SPENT}
	 */
	public static BeginResult spent(SpentKey spent) {
		return new BeginResult(Outcome.SPENT, null, spent);
	}

	/** The answers of the state machine. */
	public enum Outcome {

		/** No live record: the caller holds the scope and must complete or release it. */
		ACQUIRED,

		/** A record exists for another fingerprint: the key was reused for a different request. */
		MISMATCH,

		/** The same request is still running under another token. */
		IN_PROGRESS,

		/** The same request completed: replay its outcome. */
		COMPLETED,

		/**
		 * The same request completed and its answer expired, but its key is still spent (see
		 * {@link SpentMarker}): do not run it again, tell the caller so.
		 */
		SPENT

	}

}
