package dev.modelgate.idempotency.web.servlet;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.web.internal.HttpAction;
import dev.modelgate.idempotency.web.internal.HttpDecision;
import dev.modelgate.idempotency.web.internal.RequestDecision;
import dev.modelgate.idempotency.web.servlet.KeyedRequestReader.KeyedRequest;

/**
 * A duplicate's pause before it asks the store again ({@link HttpAction.AskAgain}), without holding a
 * request thread: the request goes asynchronous, and after the pause it is dispatched back to the
 * filter, which asks {@code begin} again on a container thread as it did the first time.
 */
final class HeadWait extends ClientWatch {

	/** The request attribute that brings the request back into the filter. */
	private static final String OVER = HeadWait.class.getName() + ".OVER";

	/**
	 * What the dispatch back to the filter carries.
	 * @param decision the request's decision
	 * @param read its body and fingerprint
	 * @param stopping whether the application is stopping (the duplicate is refused)
	 */
	record Over(RequestDecision decision, KeyedRequest read, boolean stopping) {
	}

	private HeadWait() {
	}

	/**
	 * Starts the pause.
	 * @param decision the request's decision
	 * @param read its body and fingerprint
	 * @param request the request, which supports asynchronous processing
	 * @param pause how long
	 * @param timers where the pause is timed
	 */
	static void start(RequestDecision decision, KeyedRequest read, HttpServletRequest request, Duration pause,
			ScheduledExecutorService timers) {
		AsyncContext context = request.startAsync();
		// stream.head-wait bounds the wait; the container's timeout must not end it first.
		context.setTimeout(0);
		HeadWait watch = new HeadWait();
		context.addListener(watch);
		try {
			timers.schedule(() -> watch.dispatch(context, request, new Over(decision, read, false)), pause.toNanos(),
					TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			watch.dispatch(context, request, new Over(decision, read, true));
		}
	}

	/**
	 * {@return whether the request is the dispatch that ends a pause}
	 * @param request an asynchronous dispatch
	 */
	static boolean isOver(HttpServletRequest request) {
		return request.getAttribute(OVER) != null;
	}

	/**
	 * {@return what the dispatch that ends a pause carries, taken off the request, or {@code null}}
	 * @param request the request
	 */
	static @Nullable Over over(HttpServletRequest request) {
		if (request.getAttribute(OVER) instanceof Over over) {
			request.removeAttribute(OVER);
			return over;
		}
		return null;
	}

	private void dispatch(AsyncContext context, HttpServletRequest request, Over over) {
		if (clientGone()) {
			return;
		}
		request.setAttribute(OVER, over);
		try {
			context.dispatch();
		}
		catch (IllegalStateException ex) {
			// The client went away meanwhile: nobody waits for the answer, and nothing was begun for them.
		}
	}

}
