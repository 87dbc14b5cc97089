package dev.modelgate.idempotency.web.internal;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.IdempotencyProblem;
import dev.modelgate.idempotency.web.internal.HttpAction;
import dev.modelgate.idempotency.web.internal.HttpDecision;
import dev.modelgate.idempotency.web.internal.RequestDecision;

/**
 * What a web adapter does with a request bound for an idempotent endpoint, as {@link HttpDecision}
 * decides it: each stack only carries the action out in its own way.
 */
public sealed interface HttpAction {

	/** Run the handler without protection: the request has no key, or the endpoint lets it go on. */
	HttpAction PROCEED = new Proceed();

	/** Run the handler under the acquired lease, recording its response. */
	HttpAction RUN = new Run();

	/** Follow the recorded stream from the start (or from {@code Last-Event-ID}) to its end. */
	HttpAction REPLAY_STREAM = new ReplayStream();

	/**
	 * Follow the stream the running request is recording, counted among its followers; if it has none
	 * yet, ask {@link RequestDecision#notFollowed} what next.
	 */
	HttpAction ATTACH = new Attach();

	/**
	 * Pause, then ask the store again (without the endpoint's wait): a duplicate waits for the stream
	 * of the request it duplicates to begin, without holding on to the store or a thread.
	 * @param pause how long
	 */
	record AskAgain(Duration pause) implements HttpAction {
	}

	/**
	 * Refuse with a problem.
	 * @param problem the answer
	 * @param location the {@code Location} header to answer with it (a duplicate's status resource),
	 * or {@code null}
	 */
	record Reject(IdempotencyProblem problem, @Nullable String location) implements HttpAction {

		/** @param problem the answer, without a {@code Location} */
		public Reject(IdempotencyProblem problem) {
			this(problem, null);
		}

	}

	/**
	 * Answer 202: the request a status lookup names is still running.
	 * @param retryAfter when to look again
	 */
	record Pending(Duration retryAfter) implements HttpAction {
	}

	/**
	 * Answer with the recorded response, marked as replayed.
	 * @param response the recorded response
	 */
	record Replay(HttpResponseRecord response) implements HttpAction {
	}

	/** See {@link #PROCEED}. */
	final class Proceed implements HttpAction {

		private Proceed() {
		}

	}

	/** See {@link #RUN}. */
	final class Run implements HttpAction {

		private Run() {
		}

	}

	/** See {@link #REPLAY_STREAM}. */
	final class ReplayStream implements HttpAction {

		private ReplayStream() {
		}

	}

	/** See {@link #ATTACH}. */
	final class Attach implements HttpAction {

		private Attach() {
		}

	}

}
