package dev.modelgate.idempotency.core;

import java.util.Optional;

/**
 * The attempt the current thread is running under a held lease, so that code deeper in the call
 * (a transaction listener that marks the record as applied in the business transaction, a
 * programmatic caller deriving downstream keys) can find it without passing it through every
 * signature. Set by whoever holds the lease for exactly as long as the work runs.
 */
public final class IdempotencyContext {

	/**
	 * The key under which a reactive engine puts the {@link Held} attempt in Reactor's {@code Context}
	 * for the handler it runs: reactive work hops threads, so the thread binding does not reach it.
	 * Read it with {@code Mono.deferContextual(context -> context.getOrEmpty(IdempotencyContext.CONTEXT_KEY))}.
	 */
	public static final Class<Held> CONTEXT_KEY = Held.class;

	private static final ThreadLocal<Held> CURRENT = new ThreadLocal<>();

	private IdempotencyContext() {
	}

	/** {@return the attempt held by this thread, if any} */
	public static Optional<Held> current() {
		return Optional.ofNullable(CURRENT.get());
	}

	/**
	 * Marks {@code held} as the current thread's attempt until the returned handle is closed.
	 * @param held the attempt
	 * @return closes the binding and restores the previous one
	 */
	public static Binding bind(Held held) {
		Held previous = CURRENT.get();
		CURRENT.set(held);
		return () -> {
			if (previous == null) {
				CURRENT.remove();
			}
			else {
				CURRENT.set(previous);
			}
		};
	}

	/**
	 * An attempt in progress.
	 *
	 * @param scope the scope hash
	 * @param token the token of the lease
	 */
	public record Held(String scope, String token) {
	}

	/** Undoes a {@link #bind}. */
	@FunctionalInterface
	public interface Binding extends AutoCloseable {

		@Override
		void close();

	}

}
