package dev.modelgate.idempotency.web;

import java.time.Duration;

/**
 * Told what the {@link IdempotencyFilter} decides and how long keyed requests take, for metrics and
 * audit. Every bean of this type is called, in order, on the request thread: implementations must
 * be quick, and an exception they throw is logged and otherwise ignored.
 */
public interface IdempotencyListener {

	/** A listener that ignores everything. */
	IdempotencyListener NONE = new IdempotencyListener() {
	};

	/** Called at each decision point of a request to an {@code @Idempotent} endpoint. */
	default void onDecision(IdempotencyDecision decision) {
	}

	/**
	 * Called once a keyed request has been answered by running its handler or by a replay.
	 * @param kind whether the handler ran or the response was replayed
	 * @param method the request's HTTP method
	 * @param endpoint the endpoint
	 * @param duration from the filter taking the request to the response being written (for the
	 * first execution, the record or release included)
	 */
	default void onResponse(ResponseKind kind, String method, IdempotentEndpoint endpoint, Duration duration) {
	}

	/** How a keyed request was answered. */
	enum ResponseKind {

		/** The handler ran under a freshly acquired key. */
		FIRST,

		/** A stored response was replayed; the handler did not run. */
		REPLAY;

		/** The lower-case name used as a metric tag value. */
		public String tagValue() {
			return (this == FIRST) ? "first" : "replay";
		}

	}

}
