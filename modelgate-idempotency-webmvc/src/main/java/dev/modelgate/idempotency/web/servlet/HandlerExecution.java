package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import java.util.concurrent.ScheduledExecutorService;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.async.CallableProcessingInterceptor;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.context.request.async.DeferredResultProcessingInterceptor;
import org.springframework.web.context.request.async.WebAsyncManager;
import org.springframework.web.context.request.async.WebAsyncUtils;

import dev.modelgate.idempotency.core.IdempotencyContext;
import dev.modelgate.idempotency.core.Lease;
import dev.modelgate.idempotency.core.internal.BlockingSettlement;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.ResponsePolicy;
import dev.modelgate.idempotency.web.StreamSettings;
import dev.modelgate.idempotency.web.internal.StreamReporting;

/**
 * One run of a handler under a held lease, from the chain call to the record: the response is held
 * back, then recorded (or the key released, as the {@link ResponsePolicy} says) and only then sent.
 * A handler that throws releases the key; a response too large to keep is delivered after "done,
 * result not kept" is recorded. An asynchronous response goes to a {@link StreamRecorder}: Server-Sent
 * Events are recorded as they stream, anything else passes through and releases the key.
 */
final class HandlerExecution implements CapturingResponse.OverflowListener {

	private static final Log logger = LogFactory.getLog(HandlerExecution.class);

	private final Lease lease;

	private final BlockingSettlement settlement;

	private final ResponsePolicy responsePolicy;

	private final ReplayHeaders replayHeaders;

	private final long maxResponseBytes;

	private final StreamSettings streamSettings;

	private final ScheduledExecutorService streamTimers;

	private final StreamReporting streamReporting;

	private boolean settledEarly;

	private volatile StreamRecorder recorder;

	HandlerExecution(Lease lease, BlockingSettlement settlement, ResponsePolicy responsePolicy, ReplayHeaders replayHeaders,
			long maxResponseBytes, StreamSettings streamSettings, ScheduledExecutorService streamTimers,
			StreamReporting streamReporting) {
		this.lease = lease;
		this.settlement = settlement;
		this.responsePolicy = responsePolicy;
		this.replayHeaders = replayHeaders;
		this.maxResponseBytes = maxResponseBytes;
		this.streamSettings = streamSettings;
		this.streamTimers = streamTimers;
		this.streamReporting = streamReporting;
	}

	void run(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		CapturingResponse capture = new CapturingResponse(response, this.maxResponseBytes, this);
		registerStreamEnd(request);
		try (IdempotencyContext.Binding binding = this.lease.bindToCurrentThread()) {
			chain.doFilter(new AsyncAwareRequest(request, capture), capture);
		}
		catch (IOException | ServletException | RuntimeException | Error ex) {
			if (this.recorder != null) {
				this.recorder.ended(true);
			}
			else {
				this.settlement.release("the handler threw " + ex.getClass().getName());
			}
			throw ex;
		}
		if (this.recorder != null) {
			// Settled by the recorder when the stream ends, on whichever thread ends it.
			return;
		}
		finish(capture);
	}

	private void finish(CapturingResponse capture) throws IOException {
		if (capture.isOverflowed()) {
			if (!this.settledEarly) {
				this.settlement.release("the response was not recordable");
			}
			return;
		}
		if (capture.isErrorSent() || !this.responsePolicy.shouldRecord(capture.getStatus())) {
			this.settlement.release(null);
			capture.commit();
			return;
		}
		this.settlement.record(capture.toStoredOutcome(this.replayHeaders));
		capture.commit();
	}

	/**
	 * An oversized body is about to reach the client: record "done, result not kept" first, so that
	 * the key stays spent (a retry gets 410 rather than running the operation again).
	 */
	@Override
	public void beforeOverflow(int status) {
		if (this.responsePolicy.shouldRecord(status)) {
			this.settledEarly = true;
			logger.warn("Response for idempotency scope " + this.lease.scope() + " is larger than "
					+ this.maxResponseBytes + " bytes; it is delivered but not stored, and retries will get 410");
			this.settlement.record(null);
		}
	}

	/**
	 * Tells the recorder the handler's result the moment it is set (a normal end, or an exception,
	 * a timeout included), on the thread that sets it: whatever then happens to the dispatch, the
	 * stream is settled.
	 */
	private void registerStreamEnd(HttpServletRequest request) {
		WebAsyncManager asyncManager = WebAsyncUtils.getAsyncManager(request);
		asyncManager.registerDeferredResultInterceptor(StreamRecorder.class.getName(),
				new DeferredResultProcessingInterceptor() {

					@Override
					public <T> void postProcess(NativeWebRequest webRequest, DeferredResult<T> deferredResult,
							Object concurrentResult) {
						streamEnded(concurrentResult);
					}

				});
		asyncManager.registerCallableInterceptor(StreamRecorder.class.getName(), new CallableProcessingInterceptor() {

			@Override
			public <T> void postProcess(NativeWebRequest webRequest, Callable<T> task, Object concurrentResult) {
				streamEnded(concurrentResult);
			}

		});
	}

	private void streamEnded(Object concurrentResult) {
		StreamRecorder started = this.recorder;
		if (started != null) {
			started.ended(concurrentResult instanceof Throwable);
		}
	}

	private StreamRecorder startStream(CapturingResponse capture) {
		StreamRecorder started = new StreamRecorder(this.lease, this.settlement, capture, this.replayHeaders,
				this.streamSettings, this.streamTimers, this.streamReporting);
		try {
			capture.switchToSink(started);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.recorder = started;
		return started;
	}

	/**
	 * Hands the response to a {@link StreamRecorder} the moment the handler goes asynchronous (SSE,
	 * {@code StreamingResponseBody}, deferred results): from then on other threads write to the
	 * client, and holding their output back would race with the container completing the response.
	 * Spring MVC gets a {@link RecordedAsyncContext}, through which the stream's end reaches the recorder.
	 */
	private final class AsyncAwareRequest extends HttpServletRequestWrapper {

		private final CapturingResponse capture;

		AsyncAwareRequest(HttpServletRequest request, CapturingResponse capture) {
			super(request);
			this.capture = capture;
		}

		@Override
		public AsyncContext startAsync() {
			StreamRecorder started = startStream(this.capture);
			return new RecordedAsyncContext(super.startAsync(), started, WebAsyncUtils.getAsyncManager(this));
		}

		@Override
		public AsyncContext startAsync(ServletRequest request, ServletResponse response) {
			StreamRecorder started = startStream(this.capture);
			return new RecordedAsyncContext(super.startAsync(request, response), started,
					WebAsyncUtils.getAsyncManager(this));
		}

	}

}
