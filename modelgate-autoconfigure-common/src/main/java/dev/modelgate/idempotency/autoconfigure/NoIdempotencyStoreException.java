package dev.modelgate.idempotency.autoconfigure;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties.StoreType;

/** No store could be set up for the configured {@code modelgate.idempotency.store}. */
class NoIdempotencyStoreException extends RuntimeException {

	private final StoreType storeType;

	private final boolean redisOnClassPath;

	private final boolean testSlice;

	NoIdempotencyStoreException(StoreType storeType, boolean redisOnClassPath, boolean testSlice) {
		super("No idempotency store could be configured for modelgate.idempotency.store=" + storeType);
		this.storeType = storeType;
		this.redisOnClassPath = redisOnClassPath;
		this.testSlice = testSlice;
	}

	StoreType getStoreType() {
		return this.storeType;
	}

	/** Whether Spring Data Redis is on the class path, so that "add it" would be wrong advice. */
	boolean isRedisOnClassPath() {
		return this.redisOnClassPath;
	}

	/** Whether the context is a test slice, which leaves Redis and JDBC auto-configuration out. */
	boolean isTestSlice() {
		return this.testSlice;
	}

}
