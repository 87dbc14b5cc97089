package dev.modelgate.sample.cache;

import java.util.Optional;

/**
 * Keeps successful answers to deterministic requests for {@code modelgate.cache.ttl}. The cache is an
 * optimisation: an implementation whose storage fails reports a miss and drops writes rather than
 * failing the request.
 */
public interface ResponseCache {

	/**
	 * @param key a {@link ResponseCacheKey}
	 * @return the cached body, or empty on a miss or a storage failure
	 */
	Optional<byte[]> get(String key);

	/**
	 * @param key a {@link ResponseCacheKey}
	 * @param body the answer to keep, byte for byte
	 */
	void put(String key, byte[] body);

}
