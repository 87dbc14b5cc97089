package dev.modelgate.idempotency.core;

import java.util.List;

/**
 * Wraps the store as the {@link IdempotencyCoordinator} calls it, for cross-cutting concerns such as
 * metrics and tracing. The decorator receives the store already bounded by the operation timeout, and
 * runs on the calling thread. Declare a bean of this type to have the auto-configured coordinator
 * use it.
 */
@FunctionalInterface
public interface IdempotencyStoreDecorator {

	/**
	 * {@return a store that calls {@code store}, doing its own work around each call}
	 * @param store the store to wrap
	 */
	IdempotencyStore decorate(IdempotencyStore store);

	/**
	 * Applies {@code decorators} in order, the first one innermost.
	 * @param store the store to wrap
	 * @param decorators the decorators, innermost first
	 * @return the decorated store, or {@code store} when there is no decorator
	 */
	static IdempotencyStore decorateAll(IdempotencyStore store, List<? extends IdempotencyStoreDecorator> decorators) {
		IdempotencyStore decorated = store;
		for (IdempotencyStoreDecorator decorator : decorators) {
			decorated = decorator.decorate(decorated);
		}
		return decorated;
	}

}
