package dev.modelgate.idempotency.core;

import java.time.Duration;
import java.util.Locale;

import dev.modelgate.idempotency.core.internal.BlockingIdempotencyStoreAdapter;
import dev.modelgate.idempotency.core.internal.TimeBoundedIdempotencyStore;

/** Helpers about stores that tools outside the state machine share. */
public final class IdempotencyStores {

	private IdempotencyStores() {
	}

	/**
	 * The kind of store behind the time bound: {@link IdempotencyStore#type()} of the store that
	 * answers.
	 * @param store the store, as configured
	 * @return the kind's name
	 */
	public static String typeOf(IdempotencyStore store) {
		IdempotencyStore target = store;
		while (target instanceof TimeBoundedIdempotencyStore bounded) {
			target = bounded.getDelegate();
		}
		return target.type();
	}

	/**
	 * A non-blocking store over a blocking one, for a reactive application (WebFlux, Spring Cloud
	 * Gateway) whose store can only block: each call runs on a bounded pool of the returned store's own
	 * (daemon threads, stopped when it is closed), so that an event-loop thread only hands it over. A
	 * call that finds the pool's queue full, or takes longer than {@code operationTimeout}, fails with
	 * {@link IdempotencyStoreException} (the request gets 503). A store that never waits (the memory
	 * store) is called on the caller's thread.
	 * @param store the blocking store
	 * @param operationTimeout how long each call may take, from the moment it is asked for
	 * @param threads the most calls that run at once
	 * @param queueCapacity the most calls that wait for a thread; past it calls fail at once
	 * @return the non-blocking store, which is also {@link AutoCloseable}
	 */
	public static AsyncIdempotencyStore onBoundedPool(IdempotencyStore store, Duration operationTimeout, int threads,
			int queueCapacity) {
		return BlockingIdempotencyStoreAdapter.create(store, operationTimeout, threads, queueCapacity);
	}

	/**
	 * The lower-case simple name of a store's class, looking through anonymous subclasses and
	 * class-based proxies ({@code Foo$$SpringCGLIB$$0}).
	 * @param type the store's class
	 * @return the name
	 */
	static String nameOf(Class<?> type) {
		Class<?> named = type;
		while (named.isAnonymousClass()) {
			named = named.getSuperclass();
		}
		String name = named.getSimpleName();
		int generated = name.indexOf("$$");
		if (generated > 0) {
			name = name.substring(0, generated);
		}
		return name.toLowerCase(Locale.ROOT);
	}

}
