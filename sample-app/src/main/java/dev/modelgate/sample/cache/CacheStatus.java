package dev.modelgate.sample.cache;

/**
 * What the response cache did for a request, sent back in the {@value #HEADER} header.
 */
public enum CacheStatus {

	/** The answer came from the cache; the provider was not called. */
	HIT,

	/** The request was cacheable but not cached (or the cache could not be read); the provider answered. */
	MISS,

	/** The request is not cacheable (its temperature is absent or not 0); the cache was not consulted. */
	BYPASS;

	/** Name of the response header that carries the status. */
	public static final String HEADER = "X-ModelGate-Cache";

}
