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

	IdempotencyStore decorate(IdempotencyStore store);

	/** Applies {@code decorators} in order, the first one innermost. */
	static IdempotencyStore decorateAll(IdempotencyStore store, List<? extends IdempotencyStoreDecorator> decorators) {
		IdempotencyStore decorated = store;
		for (IdempotencyStoreDecorator decorator : decorators) {
			decorated = decorator.decorate(decorated);
		}
		return decorated;
	}

}
