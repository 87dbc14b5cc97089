package dev.modelgate.sample.cache;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The response cache for deterministic ({@code temperature: 0}) requests.
 */
@ConfigurationProperties("modelgate.cache")
public class ResponseCacheProperties {

	/**
	 * How long a cached answer is served.
	 */
	private Duration ttl = Duration.ofMinutes(5);

	/**
	 * Most answers kept by the in-memory cache; the least recently used go first. Not used with Redis,
	 * where the TTL alone bounds the cache.
	 */
	private int maxEntries = 1000;

	/**
	 * Prefix of every Redis key of the cache; the rest is a hex SHA-256.
	 */
	private String keyPrefix = "modelgate:cache:";

	public Duration getTtl() {
		return this.ttl;
	}

	public void setTtl(Duration ttl) {
		this.ttl = ttl;
	}

	public int getMaxEntries() {
		return this.maxEntries;
	}

	public void setMaxEntries(int maxEntries) {
		this.maxEntries = maxEntries;
	}

	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	public void setKeyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
	}

}
