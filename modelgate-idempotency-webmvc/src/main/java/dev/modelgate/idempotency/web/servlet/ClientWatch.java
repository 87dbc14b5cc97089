package dev.modelgate.idempotency.web.servlet;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;

/**
 * Listens to an asynchronous request this filter answers from its own threads (a follower of a stream,
 * a duplicate waiting for a stream to begin), to know when the container has ended it: the client
 * went away, or the request completed, timed out or failed. Work scheduled for such a request looks
 * at {@link #clientGone()} before it writes.
 */
abstract class ClientWatch implements AsyncListener {

	private volatile boolean clientGone;

	/** {@return whether the container has ended the request} */
	final boolean clientGone() {
		return this.clientGone;
	}

	/** Called when the container completes the request, after {@link #clientGone()} turned true. */
	void completed() {
	}

	@Override
	public final void onComplete(AsyncEvent event) {
		this.clientGone = true;
		completed();
	}

	@Override
	public final void onTimeout(AsyncEvent event) {
		this.clientGone = true;
	}

	@Override
	public final void onError(AsyncEvent event) {
		this.clientGone = true;
	}

	@Override
	public final void onStartAsync(AsyncEvent event) {
	}

}
