package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UnsupportedEncodingException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import org.springframework.util.FastByteArrayOutputStream;

import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * Holds the handler's response body back from the client, so that the record can be written before
 * the response is committed. Headers go straight to the real response (which stays uncommitted);
 * only the body, flushes and errors are intercepted.
 *
 * <p>A body that grows past the size cap is switched to pass-through: what was held is sent and the
 * rest streams to the client as it is written. A response that turns asynchronous is handed to a
 * {@link Sink} (a {@link StreamRecorder}): from then on every write and flush goes to it.
 */
final class CapturingResponse extends HttpServletResponseWrapper {

	private final long maxBodyBytes;

	private final OverflowListener overflowListener;

	private final FastByteArrayOutputStream buffer = new FastByteArrayOutputStream();

	private ServletOutputStream outputStream;

	private PrintWriter writer;

	private boolean passThrough;

	private boolean overflowed;

	private volatile Sink sink;

	private int errorStatus = -1;

	private String errorMessage;

	CapturingResponse(HttpServletResponse response, long maxBodyBytes, OverflowListener overflowListener) {
		super(response);
		this.maxBodyBytes = maxBodyBytes;
		this.overflowListener = overflowListener;
	}

	@Override
	public ServletOutputStream getOutputStream() {
		if (this.writer != null) {
			throw new IllegalStateException("getWriter() has already been called for this response");
		}
		if (this.outputStream == null) {
			this.outputStream = new CapturingOutputStream();
		}
		return this.outputStream;
	}

	@Override
	public PrintWriter getWriter() throws UnsupportedEncodingException {
		if (this.outputStream != null && this.writer == null) {
			throw new IllegalStateException("getOutputStream() has already been called for this response");
		}
		if (this.writer == null) {
			this.outputStream = new CapturingOutputStream();
			this.writer = new PrintWriter(new OutputStreamWriter(this.outputStream, getCharacterEncoding()));
		}
		return this.writer;
	}

	@Override
	public void flushBuffer() throws IOException {
		Sink sink = this.sink;
		if (sink != null) {
			flushWriter();
			sink.flush();
			return;
		}
		// Flushing would commit the response before its record is written; held until then.
		if (this.passThrough) {
			super.flushBuffer();
		}
	}

	@Override
	public boolean isCommitted() {
		return this.passThrough && super.isCommitted();
	}

	@Override
	public void resetBuffer() {
		if (!this.passThrough) {
			this.buffer.reset();
		}
		super.resetBuffer();
	}

	@Override
	public void reset() {
		if (!this.passThrough) {
			this.buffer.reset();
			this.errorStatus = -1;
		}
		super.reset();
	}

	@Override
	public void sendError(int status) {
		sendError(status, null);
	}

	@Override
	public void sendError(int status, String message) {
		// The container renders error pages after the filter chain returns, out of our sight; the
		// error is passed on once the record decision is made.
		this.errorStatus = status;
		this.errorMessage = message;
		setStatus(status);
	}

	@Override
	public void sendRedirect(String location) {
		setStatus(HttpServletResponse.SC_FOUND);
		setHeader("Location", location);
	}

	@Override
	public void setContentLength(int length) {
		setContentLengthLong(length);
	}

	@Override
	public void setContentLengthLong(long length) {
		// While held, the length is set when the body is sent: a handler's value could make the
		// container commit early.
		if (this.passThrough) {
			super.setContentLengthLong(length);
		}
	}

	/** Whether the handler asked the container to render an error page. */
	boolean isErrorSent() {
		return this.errorStatus >= 0;
	}

	/** Whether the body outgrew the cap and went to the client without being held. */
	boolean isOverflowed() {
		return this.overflowed;
	}

	/** The held response, with only the headers {@code replayHeaders} allows. */
	StoredOutcome toStoredOutcome(ReplayHeaders replayHeaders) throws IOException {
		// The held bytes as one array, shared with the buffer rather than copied: neither changes them.
		flushWriter();
		return toStoredOutcomeOf(replayHeaders, this.buffer.toByteArrayUnsafe());
	}

	private StoredOutcome toStoredOutcomeOf(ReplayHeaders replayHeaders, byte[] body) {
		HttpServletResponse response = (HttpServletResponse) getResponse();
		Map<String, List<String>> headers = new LinkedHashMap<>();
		for (String name : response.getHeaderNames()) {
			if (replayHeaders.isReplayed(name)) {
				headers.put(name, new ArrayList<>(response.getHeaders(name)));
			}
		}
		if (response.getContentType() != null && !headers.containsKey("Content-Type")) {
			headers.put("Content-Type", List.of(response.getContentType()));
		}
		return HttpResponseRecord.encode(response.getStatus(), headers, body, body.length);
	}

	/**
	 * The head of a stream, for {@link dev.modelgate.idempotency.core.IdempotencyStore#openStream}:
	 * the status and the headers {@code replayHeaders} allows, in {@link HttpResponseRecord}'s format
	 * with no body.
	 */
	byte[] streamHead(ReplayHeaders replayHeaders) {
		return toStoredOutcomeOf(replayHeaders, new byte[0]).payload();
	}

	/**
	 * Hands every later write and flush to {@code sink}, after what was held: for a response that
	 * went asynchronous, written from other threads.
	 */
	void switchToSink(Sink sink) throws IOException {
		flushWriter();
		this.passThrough = true;
		this.sink = sink;
		if (this.buffer.size() > 0) {
			byte[] held = this.buffer.toByteArray();
			this.buffer.reset();
			sink.write(held, 0, held.length);
		}
	}

	/** Sends what was held to the client: the body, or the error page request. */
	void commit() throws IOException {
		flushWriter();
		HttpServletResponse response = (HttpServletResponse) getResponse();
		if (this.passThrough) {
			return;
		}
		if (isErrorSent()) {
			if (this.errorMessage != null) {
				response.sendError(this.errorStatus, this.errorMessage);
			}
			else {
				response.sendError(this.errorStatus);
			}
			return;
		}
		response.setContentLength(this.buffer.size());
		this.buffer.writeTo(response.getOutputStream());
		response.flushBuffer();
	}

	/**
	 * Sends what was held and lets the rest of the body go straight to the client, for responses
	 * that cannot be held (too large, or asynchronous).
	 */
	void switchToPassThrough() throws IOException {
		if (this.passThrough) {
			return;
		}
		this.passThrough = true;
		if (this.writer != null) {
			this.writer.flush();
		}
		this.buffer.writeTo(getResponse().getOutputStream());
		this.buffer.reset();
	}

	private void flushWriter() {
		if (this.writer != null) {
			this.writer.flush();
		}
	}

	/** Takes the body of a response that went asynchronous: every write and flush, from any thread. */
	interface Sink {

		void write(byte[] bytes, int offset, int length) throws IOException;

		void flush() throws IOException;

	}

	/** Told once, just before an oversized body starts going to the client. */
	@FunctionalInterface
	interface OverflowListener {

		void beforeOverflow(int status);

	}

	private final class CapturingOutputStream extends ServletOutputStream {

		@Override
		public void write(int b) throws IOException {
			write(new byte[] { (byte) b }, 0, 1);
		}

		@Override
		public void write(byte[] b, int off, int len) throws IOException {
			Sink sink = CapturingResponse.this.sink;
			if (sink != null) {
				sink.write(b, off, len);
				return;
			}
			if (!CapturingResponse.this.passThrough && CapturingResponse.this.buffer.size() + len > CapturingResponse.this.maxBodyBytes) {
				CapturingResponse.this.overflowed = true;
				CapturingResponse.this.overflowListener.beforeOverflow(getStatus());
				switchToPassThrough();
			}
			if (CapturingResponse.this.passThrough) {
				getResponse().getOutputStream().write(b, off, len);
			}
			else {
				CapturingResponse.this.buffer.write(b, off, len);
			}
		}

		@Override
		public void flush() throws IOException {
			Sink sink = CapturingResponse.this.sink;
			if (sink != null) {
				sink.flush();
				return;
			}
			if (CapturingResponse.this.passThrough) {
				getResponse().getOutputStream().flush();
			}
		}

		@Override
		public boolean isReady() {
			return true;
		}

		@Override
		public void setWriteListener(WriteListener listener) {
			throw new IllegalStateException("Non-blocking writes are not supported on a held response");
		}

	}

}
