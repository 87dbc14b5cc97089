package dev.modelgate.idempotency.actuate;

import java.util.Map;

/**
 * Details a store adds to the {@code idempotency} health once its probe answered, such as the Redis
 * store's eviction policy. They describe the store; they do not change the health's status.
 */
@FunctionalInterface
public interface IdempotencyStoreHealthDetails {

	/**
	 * Reads the details; bounded by the health check's timeout.
	 * @return the details by name, empty for none
	 * @throws RuntimeException when the store fails to answer (the health is then {@code DOWN})
	 */
	Map<String, Object> details();

	/** {@return details that add nothing} */
	static IdempotencyStoreHealthDetails none() {
		return Map::of;
	}

}
