package dev.modelgate.idempotency.web;

import java.io.IOException;
import java.io.UncheckedIOException;

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

import dev.modelgate.idempotency.core.IdempotencyContext;
import dev.modelgate.idempotency.core.Lease;
import dev.modelgate.idempotency.core.Settlement;

/**
 * One run of a handler under a held lease, from the chain call to the record: the response is held
 * back, then recorded (or the key released, as the {@link ResponsePolicy} says) and only then sent.
 * A handler that throws releases the key; a response too large to keep is delivered after "done,
 * result not kept" is recorded; an asynchronous response passes through and releases the key.
 */
final class HandlerExecution implements CapturingResponse.OverflowListener {

	private static final Log logger = LogFactory.getLog(HandlerExecution.class);

	private final Lease lease;

	private final Settlement settlement;

	private final ResponsePolicy responsePolicy;

	private final ReplayHeaders replayHeaders;

	private final long maxResponseBytes;

	private boolean settledEarly;

	HandlerExecution(Lease lease, Settlement settlement, ResponsePolicy responsePolicy, ReplayHeaders replayHeaders,
			long maxResponseBytes) {
		this.lease = lease;
		this.settlement = settlement;
		this.responsePolicy = responsePolicy;
		this.replayHeaders = replayHeaders;
		this.maxResponseBytes = maxResponseBytes;
	}

	void run(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		CapturingResponse capture = new CapturingResponse(response, this.maxResponseBytes, this);
		try (IdempotencyContext.Binding binding = this.lease.bindToCurrentThread()) {
			chain.doFilter(new AsyncAwareRequest(request, capture), capture);
		}
		catch (IOException | ServletException | RuntimeException | Error ex) {
			this.settlement.release("the handler threw " + ex.getClass().getName());
			throw ex;
		}
		if (request.isAsyncStarted()) {
			this.settlement.release("the response is streamed or asynchronous and cannot be recorded");
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
	 * Switches the held response to pass-through the moment the handler goes asynchronous (SSE,
	 * {@code StreamingResponseBody}, deferred results): from then on other threads write to the
	 * client, and holding their output back would race with the container completing the response.
	 */
	private static final class AsyncAwareRequest extends HttpServletRequestWrapper {

		private final CapturingResponse capture;

		AsyncAwareRequest(HttpServletRequest request, CapturingResponse capture) {
			super(request);
			this.capture = capture;
		}

		@Override
		public AsyncContext startAsync() {
			passThrough();
			return super.startAsync();
		}

		@Override
		public AsyncContext startAsync(ServletRequest request, ServletResponse response) {
			passThrough();
			return super.startAsync(request, response);
		}

		private void passThrough() {
			try {
				this.capture.switchToPassThrough();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

}
