package dev.modelgate.sample.faults;

import java.io.IOException;
import java.time.Duration;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Reads the fault header and binds the requested {@link FaultPoint} to the request's thread. Runs
 * before the idempotency filter, so that for {@link FaultPoint#AFTER_RECORD} it sees the response
 * the way the client will: the idempotency filter writes the record first and only then sends the
 * held body through this filter's wrapper, whose first write or flush is where the request stops.
 */
final class FaultInjectionFilter extends OncePerRequestFilter {

	private final String headerName;

	private final Duration pause;

	FaultInjectionFilter(String headerName, Duration pause) {
		this.headerName = headerName;
		this.pause = pause;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String value = request.getHeader(this.headerName);
		FaultPoint point = (value != null) ? FaultPoint.fromHeaderValue(value) : null;
		if (point == null) {
			chain.doFilter(request, response);
			return;
		}
		RequestedFault.bind(point, this.pause);
		try {
			chain.doFilter(request,
					(point == FaultPoint.AFTER_RECORD) ? new PausingBeforeFirstByteResponse(response) : response);
		}
		finally {
			RequestedFault.unbind();
		}
	}

	/** Stops the first time anything would reach the client: a body write or a flush. */
	private static final class PausingBeforeFirstByteResponse extends HttpServletResponseWrapper {

		private ServletOutputStream outputStream;

		PausingBeforeFirstByteResponse(HttpServletResponse response) {
			super(response);
		}

		@Override
		public ServletOutputStream getOutputStream() throws IOException {
			if (this.outputStream == null) {
				this.outputStream = new PausingOutputStream(super.getOutputStream());
			}
			return this.outputStream;
		}

		@Override
		public void flushBuffer() throws IOException {
			RequestedFault.pauseIfRequested(FaultPoint.AFTER_RECORD);
			RequestedFault.unbind();
			super.flushBuffer();
		}

	}

	private static final class PausingOutputStream extends ServletOutputStream {

		private final ServletOutputStream delegate;

		PausingOutputStream(ServletOutputStream delegate) {
			this.delegate = delegate;
		}

		@Override
		public void write(int b) throws IOException {
			pauseOnce();
			this.delegate.write(b);
		}

		@Override
		public void write(byte[] b, int off, int len) throws IOException {
			pauseOnce();
			this.delegate.write(b, off, len);
		}

		@Override
		public void flush() throws IOException {
			pauseOnce();
			this.delegate.flush();
		}

		@Override
		public boolean isReady() {
			return this.delegate.isReady();
		}

		@Override
		public void setWriteListener(WriteListener listener) {
			this.delegate.setWriteListener(listener);
		}

		/** Only the first byte waits; unbinding makes every later call pass straight through. */
		private static void pauseOnce() {
			RequestedFault.pauseIfRequested(FaultPoint.AFTER_RECORD);
			RequestedFault.unbind();
		}

	}

}
