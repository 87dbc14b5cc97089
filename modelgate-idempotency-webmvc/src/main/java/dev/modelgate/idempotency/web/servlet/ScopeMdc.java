package dev.modelgate.idempotency.web.servlet;

import org.slf4j.MDC;

import org.springframework.util.ClassUtils;

/**
 * Puts the scope hash in the SLF4J MDC while the filter handles a keyed request, so that every log
 * line written meanwhile (the handler's included) can be tied to the record. Does nothing where
 * SLF4J is absent.
 */
final class ScopeMdc {

	private static final boolean SLF4J_PRESENT = ClassUtils.isPresent("org.slf4j.MDC", ScopeMdc.class.getClassLoader());

	private static final Binding NONE = () -> {
	};

	private ScopeMdc() {
	}

	/**
	 * Sets the scope under {@code key} until the returned binding is closed, which restores what was
	 * there before (a nested request dispatch keeps its caller's value).
	 */
	static Binding bind(String key, String scope) {
		return SLF4J_PRESENT ? Slf4j.bind(key, scope) : NONE;
	}

	/** Undoes a {@link #bind}. */
	@FunctionalInterface
	interface Binding extends AutoCloseable {

		@Override
		void close();

	}

	/** Touches SLF4J only when it is present. */
	private static final class Slf4j {

		static Binding bind(String key, String scope) {
			String previous = MDC.get(key);
			MDC.put(key, scope);
			return () -> {
				if (previous != null) {
					MDC.put(key, previous);
				}
				else {
					MDC.remove(key);
				}
			};
		}

	}

}
