package dev.modelgate.idempotency.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains, at start-up, why a Redis that may evict idempotency records was refused and how to make it
 * keep them.
 */
class RedisEvictionPolicyFailureAnalyzer extends AbstractFailureAnalyzer<RedisEvictionPolicyException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, RedisEvictionPolicyException cause) {
		String description = cause.getMessage()
				+ " modelgate.idempotency.redis.require-noeviction=true refuses to start with such a Redis.";
		if (!cause.getPolicy().isKnown()) {
			return new FailureAnalysis(description, """
					Let the policy be read, or stop requiring it:
					  - Allow the Redis user to read it: ACL SETUSER <user> +config|get (or +info).
					  - Or, when the provider allows neither and you know the policy is noeviction, set \
					modelgate.idempotency.redis.require-noeviction=false (start-up then logs a warning).""", cause);
		}
		return new FailureAnalysis(description, """
				Make the Redis that keeps the idempotency records keep them, in one of these ways:
				  - Set maxmemory-policy noeviction on it: CONFIG SET maxmemory-policy noeviction, and in redis.conf \
				(or the managed service's parameter group) so that it survives a restart. A full Redis then refuses \
				new keys (503 idempotency_store_unavailable) instead of forgetting old ones.
				  - Give the idempotency records a Redis of their own with noeviction, apart from a cache that has to \
				evict: point spring.data.redis.* at it, or declare a dev.modelgate.idempotency.redis.RedisIdempotencyStore \
				bean on a RedisConnectionFactory of its own.
				  - Or accept the risk: set modelgate.idempotency.redis.require-noeviction=false (start-up then logs \
				a warning).""", cause);
	}

}
