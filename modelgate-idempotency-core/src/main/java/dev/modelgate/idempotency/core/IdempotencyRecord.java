package dev.modelgate.idempotency.core;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * What a store holds for one scope, as far as an operator may see it: the state, when the attempt
 * began, when the record stops counting, and the kind and size of the stored outcome. It deliberately
 * carries neither the outcome itself nor anything from which the key or the client could be read
 * back; the fingerprint and the token stay in the store too.
 *
 * @param scope the scope hash
 * @param state where the record is in its lifecycle
 * @param createdAt when the attempt that wrote the record acquired it, on the store's clock, or
 * {@code null} when the store did not keep it (a Redis record written before the field existed)
 * @param expiresAt when the record stops counting, on the store's clock: the end of the lease while
 * in progress, the end of retention once completed; {@code null} when it has no expiry
 * @param now the store's clock when the record was read, so that age and time to expiry are measured
 * on one clock
 * @param outcomeKind the kind of the stored outcome, or {@code null} when there is none (still in
 * progress, or completed with its result not kept)
 * @param outcomeSize the size of the stored outcome in bytes, or {@code null} when there is none
 */
public record IdempotencyRecord(String scope, State state, @Nullable Instant createdAt, @Nullable Instant expiresAt,
		Instant now, StoredOutcome.@Nullable Kind outcomeKind, @Nullable Long outcomeSize) {

	/** {@return how long ago the attempt began, or {@code null} when the creation time is unknown} */
	public @Nullable Duration age() {
		return (this.createdAt != null) ? Duration.between(this.createdAt, this.now) : null;
	}

	/** {@return how long until the record stops counting, or {@code null} when it has no expiry} */
	public @Nullable Duration expiresIn() {
		return (this.expiresAt != null) ? Duration.between(this.now, this.expiresAt) : null;
	}

	/** {@return whether an outcome is stored for replay} */
	public boolean isOutcomeStored() {
		return this.outcomeKind != null;
	}

	/** The lifecycle states a record can be found in. */
	public enum State {

		/** An attempt holds the lease and is running; duplicates get 409 (or wait). */
		IN_PROGRESS,

		/**
		 * The attempt's business transaction committed but its response is not stored yet (the JDBC
		 * store only); never run again.
		 */
		APPLIED,

		/** The attempt finished; retries are replayed, or told the result was not kept. */
		COMPLETED

	}

}
