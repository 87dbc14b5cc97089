package dev.modelgate.idempotency.redis;

import java.time.Duration;

/**
 * How many replicas must hold a {@code begin} or {@code complete} before the store counts it, and
 * how long the primary waits for them (Redis {@code WAIT numreplicas timeout}). Redis replicates
 * asynchronously: without this, a write acknowledged by a primary that dies before its replicas got
 * it is lost when a replica is promoted, and a retry runs the operation again.
 *
 * @param replicas how many replicas must acknowledge, at least 1
 * @param timeout how long the primary waits for them, positive
 */
public record ReplicaAcknowledgement(int replicas, Duration timeout) {

	/**
	 * @param replicas how many replicas must acknowledge, at least 1
	 * @param timeout how long the primary waits for them, positive
	 */
	public ReplicaAcknowledgement {
		if (replicas < 1) {
			throw new IllegalArgumentException("replicas must be at least 1, not " + replicas);
		}
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("timeout must be positive, not " + timeout);
		}
	}

	/** {@return whether {@code acknowledged} replicas are enough} */
	boolean isMetBy(long acknowledged) {
		return acknowledged >= this.replicas;
	}

}
