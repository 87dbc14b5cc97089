package dev.modelgate.idempotency.autoconfigure;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties.StoreType;

/** No store could be set up for the configured {@code modelgate.idempotency.store}. */
class NoIdempotencyStoreException extends RuntimeException {

	private final StoreType storeType;

	NoIdempotencyStoreException(StoreType storeType) {
		super("No idempotency store could be configured for modelgate.idempotency.store=" + storeType);
		this.storeType = storeType;
	}

	StoreType getStoreType() {
		return this.storeType;
	}

}
