package dev.modelgate.idempotency.autoconfigure;

import dev.modelgate.idempotency.redis.RedisEvictionPolicy;

/**
 * Thrown at start-up when {@code modelgate.idempotency.redis.require-noeviction} is set and the store's
 * Redis may evict records.
 */
class RedisEvictionPolicyException extends RuntimeException {

	private final transient RedisEvictionPolicy policy;

	RedisEvictionPolicyException(RedisEvictionPolicy policy) {
		super(RedisEvictionRisk.of(policy));
		this.policy = policy;
	}

	RedisEvictionPolicy getPolicy() {
		return this.policy;
	}

}
