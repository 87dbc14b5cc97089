package dev.modelgate.idempotency.core;

import java.util.Locale;

/** Helpers about stores that tools outside the state machine share. */
public final class IdempotencyStores {

	private IdempotencyStores() {
	}

	/**
	 * A short, stable name for the kind of store, for metric tags and health details: {@code redis},
	 * {@code jdbc} or {@code memory} for the built-in stores, else the lower-case simple class name.
	 * Looks through the time bound, anonymous subclasses and class-based proxies
	 * ({@code Foo$$SpringCGLIB$$0}).
	 * @param store the store, as configured
	 * @return the kind's name
	 */
	public static String typeOf(IdempotencyStore store) {
		IdempotencyStore target = store;
		while (target instanceof TimeBoundedIdempotencyStore bounded) {
			target = bounded.getDelegate();
		}
		Class<?> type = target.getClass();
		while (type.isAnonymousClass()) {
			type = type.getSuperclass();
		}
		String name = type.getSimpleName();
		int generated = name.indexOf("$$");
		if (generated > 0) {
			name = name.substring(0, generated);
		}
		return switch (name) {
			case "RedisIdempotencyStore" -> "redis";
			case "JdbcIdempotencyStore" -> "jdbc";
			case "InMemoryIdempotencyStore" -> "memory";
			default -> name.toLowerCase(Locale.ROOT);
		};
	}

}
