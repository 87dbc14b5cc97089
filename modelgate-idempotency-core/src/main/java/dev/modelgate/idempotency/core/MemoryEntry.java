package dev.modelgate.idempotency.core;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A record of an {@link InMemoryIdempotencyStore}.
 *
 * @param stream the stream the record holds, or {@code null}; a completed record keeps its events
 * only when it completed as a stream
 * @param answerUntil for a spent key, when its answer expires and only its marker counts
 * @param spent for a spent key, its marker
 */
record MemoryEntry(String fingerprint, String token, boolean completed, @Nullable StoredOutcome outcome,
		Instant createdAt, Instant expiresAt, @Nullable MemoryStream stream, @Nullable Instant answerUntil,
		@Nullable SpentKey spent) {

	MemoryEntry(String fingerprint, String token, boolean completed, @Nullable StoredOutcome outcome,
			Instant createdAt, Instant expiresAt, @Nullable MemoryStream stream) {
		this(fingerprint, token, completed, outcome, createdAt, expiresAt, stream, null, null);
	}

	static MemoryEntry inProgress(String fingerprint, String token, Instant createdAt, Instant expiresAt) {
		return new MemoryEntry(fingerprint, token, false, null, createdAt, expiresAt, null);
	}

	/** Whether the answer expired and only the spent key's marker counts. */
	boolean isSpent(Instant now) {
		return this.answerUntil != null && !now.isBefore(this.answerUntil);
	}

	/** Keeps the answer until {@code answerUntil}, then the marker until {@code expiresAt}. */
	MemoryEntry spentAfter(Instant answerUntil, SpentKey spent, Instant expiresAt) {
		return new MemoryEntry(this.fingerprint, this.token, this.completed, this.outcome, this.createdAt, expiresAt,
				this.stream, answerUntil, spent);
	}

	/** The marker alone: the answer's bytes go. */
	MemoryEntry trimmed() {
		return new MemoryEntry(this.fingerprint, this.token, this.completed, null, this.createdAt, this.expiresAt,
				null, this.answerUntil, this.spent);
	}

	StreamSlice.State streamState() {
		if (!this.completed) {
			return StreamSlice.State.STREAMING;
		}
		return (this.outcome != null && this.outcome.kind() == StoredOutcome.Kind.STREAM)
				? StreamSlice.State.COMPLETED : StreamSlice.State.NOT_KEPT;
	}

	boolean isExpired(Instant now) {
		return !now.isBefore(this.expiresAt);
	}

	long size() {
		if (this.stream != null) {
			return this.stream.bytes;
		}
		return (this.outcome != null) ? this.outcome.size() : 0;
	}

	BeginResult answer(String requested, Instant now) {
		if (!this.fingerprint.equals(requested)) {
			return BeginResult.mismatch();
		}
		if (this.spent != null && isSpent(now)) {
			return BeginResult.spent(this.spent);
		}
		return this.completed ? BeginResult.completed(this.outcome) : BeginResult.inProgress();
	}

	MemoryEntry withExpiry(Instant expiresAt) {
		return new MemoryEntry(this.fingerprint, this.token, this.completed, this.outcome, this.createdAt, expiresAt,
				this.stream);
	}

	MemoryEntry withStream(MemoryStream stream) {
		return new MemoryEntry(this.fingerprint, this.token, this.completed, this.outcome, this.createdAt,
				this.expiresAt, stream);
	}

	/** A stream completed this way is not kept: only its head stays, to tell followers so. */
	MemoryEntry completed(@Nullable StoredOutcome outcome, Instant expiresAt) {
		return new MemoryEntry(this.fingerprint, this.token, true, outcome, this.createdAt, expiresAt,
				(this.stream != null) ? new MemoryStream(this.stream.head) : null);
	}

	IdempotencyRecord toRecord(String scope, Instant now) {
		IdempotencyRecord.State state = this.completed ? IdempotencyRecord.State.COMPLETED
				: IdempotencyRecord.State.IN_PROGRESS;
		return new IdempotencyRecord(scope, state, this.createdAt, this.expiresAt, now,
				(this.outcome != null) ? this.outcome.kind() : null,
				(this.outcome != null) ? (long) this.outcome.size() : null);
	}

}
