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

	/**
	 * Called each time a recorded stream's events are appended to the store, one call per store
	 * write: the number of calls is the store round trips, the events over the calls how well they
	 * are batched.
	 * @param method as in {@link IdempotencyDecision#method()}
	 * @param route as in {@link IdempotencyDecision#route()}
	 * @param events how many events this write appended
	 * @param bytes their size, {@code id:} lines included
	 */
	default void onStreamAppend(String method, String route, int events, long bytes) {
	}

	/**
	 * Called once per recorded stream, when its first events have been handed to the client: the time
	 * the library added before them (opening the stream in the store, appending the first events,
	 * then writing them out), measured from the handler's first output.
	 * @param method as in {@link IdempotencyDecision#method()}
	 * @param route as in {@link IdempotencyDecision#route()}
	 * @param added the store writes before the first event plus its write to the connection
	 */
	default void onStreamFirstEvent(String method, String route, Duration added) {
	}

	/**
	 * Called once per request to the status resource, with what it answered: {@code in_progress},
	 * {@code attached} (it follows a running stream), {@code replayed}, {@code spent},
	 * {@code result_unavailable}, {@code unknown}, {@code invalid} (a bad token, key or identity) or
	 * {@code store_unavailable}.
	 * @param outcome the answer, as a metric tag value
	 */
	default void onStatusLookup(String outcome) {
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
