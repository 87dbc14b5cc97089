package dev.modelgate.idempotency.core;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What a completion leaves behind once its answer expires: for {@code retention} after the
 * {@code ttl}, the store keeps the scope hash, the fingerprint, {@code status}, the completion time
 * and {@code resource}, and {@link IdempotencyStore#begin begin} answers
 * {@link BeginResult.Outcome#SPENT SPENT} for the same fingerprint (and {@code MISMATCH} for another)
 * instead of acquiring the scope. After the retention the key is free again.
 *
 * @param retention how long the marker outlives the answer; positive
 * @param status the final status, at most {@value #MAX_STATUS_LENGTH} characters: the HTTP status
 * code for a web request ({@code "201"}), the outcome kind's code for programmatic work and
 * listeners ({@code "value"}, {@code "failure"}, {@code "null"}, {@code "unknown"})
 * @param resource a reference to what the operation created (a URI), at most
 * {@value #MAX_RESOURCE_LENGTH} characters, or {@code null}
 */
public record SpentMarker(Duration retention, String status, @Nullable String resource) {

	/** The longest status a store keeps. */
	public static final int MAX_STATUS_LENGTH = 32;

	/** The longest resource reference a store keeps. */
	public static final int MAX_RESOURCE_LENGTH = 2048;

	/**
	 * @throws IllegalArgumentException when the retention is not positive, or the status or the
	 * resource is too long
	 */
	public SpentMarker {
		Objects.requireNonNull(retention, "retention must not be null");
		Objects.requireNonNull(status, "status must not be null");
		if (retention.isNegative() || retention.isZero()) {
			throw new IllegalArgumentException("retention must be positive, was " + retention);
		}
		if (status.isEmpty() || status.length() > MAX_STATUS_LENGTH) {
			throw new IllegalArgumentException("status must be 1 to " + MAX_STATUS_LENGTH + " characters");
		}
		if (resource != null && resource.length() > MAX_RESOURCE_LENGTH) {
			throw new IllegalArgumentException("resource must be at most " + MAX_RESOURCE_LENGTH + " characters");
		}
		if (resource != null && resource.isEmpty()) {
			resource = null;
		}
	}

}
