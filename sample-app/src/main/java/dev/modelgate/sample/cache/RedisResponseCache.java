package dev.modelgate.sample.cache;

import java.time.Duration;
import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * A cache in Redis, shared by every instance of the gateway, used when the idempotency store is
 * Redis. Values are the answers' bytes; each key expires on its own after the TTL.
 */
public class RedisResponseCache implements ResponseCache {

	private static final Log logger = LogFactory.getLog(RedisResponseCache.class);

	private final RedisTemplate<String, byte[]> redis;

	private final String keyPrefix;

	private final Duration ttl;

	/**
	 * @param connectionFactory the application's Redis connection
	 * @param keyPrefix put before every key, for example {@code modelgate:cache:}
	 * @param ttl how long an answer is served
	 */
	public RedisResponseCache(RedisConnectionFactory connectionFactory, String keyPrefix, Duration ttl) {
		RedisTemplate<String, byte[]> template = new RedisTemplate<>();
		template.setConnectionFactory(connectionFactory);
		template.setKeySerializer(RedisSerializer.string());
		template.setValueSerializer(RedisSerializer.byteArray());
		template.afterPropertiesSet();
		this.redis = template;
		this.keyPrefix = keyPrefix;
		this.ttl = ttl;
	}

	// Any failure (connection refused, timeout, a broken value) degrades to a miss: the provider can
	// still answer, and a cache must never be the reason a request fails.
	@Override
	public Optional<byte[]> get(String key) {
		try {
			return Optional.ofNullable(this.redis.opsForValue().get(this.keyPrefix + key));
		}
		catch (RuntimeException ex) {
			logger.warn("Response cache read failed, answering as a miss: " + ex);
			return Optional.empty();
		}
	}

	@Override
	public void put(String key, byte[] body) {
		try {
			this.redis.opsForValue().set(this.keyPrefix + key, body, this.ttl);
		}
		catch (RuntimeException ex) {
			logger.warn("Response cache write failed, the answer is not cached: " + ex);
		}
	}

}
