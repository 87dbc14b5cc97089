package dev.modelgate.idempotency.core;

import dev.modelgate.idempotency.core.internal.TimeBoundedIdempotencyStore;
import java.util.Locale;

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
