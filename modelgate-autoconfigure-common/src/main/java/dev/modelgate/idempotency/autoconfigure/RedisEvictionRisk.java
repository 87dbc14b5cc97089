package dev.modelgate.idempotency.autoconfigure;

import dev.modelgate.idempotency.redis.RedisEvictionPolicy;

/**
 * What a Redis eviction policy other than {@code noeviction} does to the idempotency records, in the
 * words the start-up warning, the start-up failure and the health details share.
 */
final class RedisEvictionRisk {

	/** The two ways out. */
	static final String FIX = "Set maxmemory-policy noeviction on this Redis, or give the idempotency records a "
			+ "Redis of their own with noeviction.";

	private static final String HARM = "under memory pressure Redis evicts idempotency records, so a completed "
			+ "key runs again and a key in progress can run twice concurrently.";

	private RedisEvictionRisk() {
	}

	/**
	 * {@return the risk, in one sentence}
	 * @param policy a policy that is not {@code noeviction}
	 */
	static String of(RedisEvictionPolicy policy) {
		if (!policy.isKnown()) {
			return "The Redis maxmemory-policy could not be read (" + policy.unknownReason()
					+ "): unless it is noeviction, " + HARM;
		}
		if (policy.name().startsWith("volatile-")) {
			return "Redis has maxmemory-policy " + policy.name() + ", which evicts keys that have an expiry, and "
					+ "every idempotency record has one: " + HARM;
		}
		return "Redis has maxmemory-policy " + policy.name() + ": " + HARM;
	}

}
