package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

import org.springframework.web.context.request.async.WebAsyncManager;

/**
 * The asynchronous context Spring MVC gets for an acquired request, which ties the end of the
 * handler's stream to its {@link StreamRecorder} and keeps the generation going when the client
 * leaves.
 *
 * <p>Spring ends every asynchronous response by a {@code dispatch()} after it stored the handler's
 * result, and tells the recorder so (once: the handler execution's result interceptor usually told
 * it first), failed when the result is an exception. And while a stream
 * is being recorded, the container's "error" and "complete" (a client that went away) are held back
 * from Spring's listeners, so that the emitter stays usable and the handler runs to its end; they are
 * passed on once the stream ended. A container that is done with the request by then is not
 * dispatched to (it refuses that after an error, and completes the request itself).
 */
final class RecordedAsyncContext implements AsyncContext {

	private final AsyncContext container;

	private final StreamRecorder recorder;

	private final WebAsyncManager asyncManager;

	private final List<Held> held = new ArrayList<>();

	/**
	 * Whether the container is done with the request (completed, or failed: the client went away),
	 * after which it refuses a dispatch from an application thread and completes the request itself.
	 */
	private volatile boolean containerDone;

	RecordedAsyncContext(AsyncContext container, StreamRecorder recorder, WebAsyncManager asyncManager) {
		this.container = container;
		this.recorder = recorder;
		this.asyncManager = asyncManager;
		container.addListener(new AsyncListener() {

			@Override
			public void onComplete(AsyncEvent event) {
				RecordedAsyncContext.this.containerDone = true;
			}

			@Override
			public void onTimeout(AsyncEvent event) {
			}

			/**
			 * A stream's client went away: the request is completed here, so that the container does not
			 * make an error dispatch, whose Spring MVC handling would take the emitter's result away from
			 * this request (its end would then fail in the handler).
			 */
			@Override
			public void onError(AsyncEvent event) {
				RecordedAsyncContext.this.containerDone = true;
				if (recorder.isStream()) {
					container.complete();
				}
			}

			@Override
			public void onStartAsync(AsyncEvent event) {
			}

		});
		recorder.onDeadline(this::passOnHeld);
	}

	@Override
	public void dispatch() {
		end(this.container::dispatch);
	}

	@Override
	public void dispatch(String path) {
		end(() -> this.container.dispatch(path));
	}

	@Override
	public void dispatch(ServletContext context, String path) {
		end(() -> this.container.dispatch(context, path));
	}

	@Override
	public void complete() {
		end(this.container::complete);
	}

	/**
	 * Ends the stream, then passes the call on to the container while it still has the request. The
	 * container may fail the request (its client went away) between the check and the call; it then
	 * refuses the call and completes the request itself, which is what was asked.
	 */
	private void end(Runnable containerCall) {
		if (end()) {
			try {
				containerCall.run();
			}
			catch (IllegalStateException ex) {
				this.containerDone = true;
				passOnHeld();
			}
		}
	}

	/** @return whether the container's request is still there to be dispatched or completed */
	private boolean end() {
		Object result = this.asyncManager.hasConcurrentResult() ? this.asyncManager.getConcurrentResult() : null;
		this.recorder.ended(result instanceof Throwable);
		if (this.containerDone) {
			passOnHeld();
			return false;
		}
		return true;
	}

	private void passOnHeld() {
		List<Held> events;
		synchronized (this.held) {
			events = new ArrayList<>(this.held);
			this.held.clear();
		}
		for (Held event : events) {
			event.passOn();
		}
	}

	@Override
	public void addListener(AsyncListener listener) {
		this.container.addListener(new Guard(listener));
	}

	@Override
	public void addListener(AsyncListener listener, ServletRequest request, ServletResponse response) {
		this.container.addListener(new Guard(listener), request, response);
	}

	@Override
	public ServletRequest getRequest() {
		return this.container.getRequest();
	}

	@Override
	public ServletResponse getResponse() {
		return this.container.getResponse();
	}

	@Override
	public boolean hasOriginalRequestAndResponse() {
		return this.container.hasOriginalRequestAndResponse();
	}

	@Override
	public void start(Runnable run) {
		this.container.start(run);
	}

	@Override
	public <T extends AsyncListener> T createListener(Class<T> type) throws ServletException {
		return this.container.createListener(type);
	}

	@Override
	public void setTimeout(long timeout) {
		this.container.setTimeout(timeout);
	}

	@Override
	public long getTimeout() {
		return this.container.getTimeout();
	}

	/**
	 * The container's "complete" held back from a listener until the stream ended. Its "error", which
	 * only said that the client went away, is not passed on: the stream did not fail.
	 */
	private record Held(AsyncListener listener, AsyncEvent event) {

		void passOn() {
			try {
				this.listener.onComplete(this.event);
			}
			catch (IOException ex) {
				// The request is over; nothing is left to tell.
			}
		}

	}

	/** Passes a listener the container's events, holding back its end while the stream is recorded. */
	private final class Guard implements AsyncListener {

		private final AsyncListener listener;

		Guard(AsyncListener listener) {
			this.listener = listener;
		}

		@Override
		public void onComplete(AsyncEvent event) throws IOException {
			if (RecordedAsyncContext.this.recorder.isRecording()) {
				synchronized (RecordedAsyncContext.this.held) {
					RecordedAsyncContext.this.held.add(new Held(this.listener, event));
				}
				return;
			}
			this.listener.onComplete(event);
		}

		@Override
		public void onTimeout(AsyncEvent event) throws IOException {
			this.listener.onTimeout(event);
		}

		@Override
		public void onError(AsyncEvent event) throws IOException {
			if (!RecordedAsyncContext.this.recorder.isRecording()) {
				this.listener.onError(event);
			}
		}

		@Override
		public void onStartAsync(AsyncEvent event) throws IOException {
			this.listener.onStartAsync(event);
		}

	}

}
