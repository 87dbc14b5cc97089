package dev.modelgate.idempotency.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.modelgate.idempotency.actuate.IdempotencyStoreHealthDetails;
import dev.modelgate.idempotency.redis.RedisEvictionPolicy;
import dev.modelgate.idempotency.redis.RedisEvictionPolicyReader;

/**
 * The Redis store's eviction policy in the {@code idempotency} health: {@code evictionPolicy} (such as
 * {@code noeviction}, {@code allkeys-lru} or {@code unknown}), and, unless it is {@code noeviction}, a
 * {@code warning} saying what it does to the records and how to fix it. Read at every health check, so a
 * policy changed at run time ({@code CONFIG SET}) shows.
 */
class RedisEvictionPolicyHealthDetails implements IdempotencyStoreHealthDetails {

	private final RedisEvictionPolicyReader reader;

	RedisEvictionPolicyHealthDetails(RedisEvictionPolicyReader reader) {
		this.reader = reader;
	}

	@Override
	public Map<String, Object> details() {
		RedisEvictionPolicy policy = this.reader.read();
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("evictionPolicy", policy.name());
		if (!policy.isNoEviction()) {
			details.put("warning", RedisEvictionRisk.of(policy) + " " + RedisEvictionRisk.FIX);
		}
		return details;
	}

}
