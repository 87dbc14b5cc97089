package dev.modelgate.idempotency.core;

import java.time.Duration;

/**
 * Told what is decided for keyed requests and calls and how long they take, for metrics and audit:
 * the web filter and {@link IdempotencyTemplate} (so {@code @IdempotentOperation} too) report the same
 * decisions through it. Every bean of this type is called, in order, on the request thread: implementations must
 * be quick, and an exception they throw is logged and otherwise ignored.
 */
public interface IdempotencyListener {

	/** A listener that ignores everything. */
	IdempotencyListener NONE = new IdempotencyListener() {
	};

	/**
	 * Called at each decision point of a keyed request or call.
	 * @param decision what was decided, where, and for which scope
	 */
	default void onDecision(IdempotencyDecision decision) {
	}

	/**
	 * Called once a keyed request or call has been answered by running its work or by a replay.
	 * @param kind whether the work ran or the outcome was replayed
	 * @param method as in {@link IdempotencyDecision#method()}
	 * @param route as in {@link IdempotencyDecision#route()}
	 * @param duration from taking the request to the answer (for the first execution, the record or
	 * release included)
	 */
	default void onResponse(ResponseKind kind, String method, String route, Duration duration) {
	}

	/** How a keyed request was answered. */
	enum ResponseKind {

		/** The work ran under a freshly acquired key. */
		FIRST,

		/** A recorded outcome was replayed; the work did not run. */
		REPLAY;

		/** {@return the lower-case name used as a metric tag value} */
		public String tagValue() {
			return (this == FIRST) ? "first" : "replay";
		}

	}

}
