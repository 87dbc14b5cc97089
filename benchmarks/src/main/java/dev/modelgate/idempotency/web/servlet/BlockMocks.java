package dev.modelgate.idempotency.web.servlet;

import java.io.ByteArrayInputStream;
import java.io.IOException;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.mock.web.MockServletContext;
import org.springframework.util.FastByteArrayOutputStream;

/**
 * Spring's mock request and response, reading and writing bodies in blocks as a servlet container
 * does. The plain mocks move one byte per call, which would cost more than everything the filter
 * does and hide it.
 */
final class BlockMocks {

	/** Shared: a mock request without one creates its own, which also costs more than the filter. */
	static final MockServletContext SERVLET_CONTEXT = new MockServletContext();

	private BlockMocks() {
	}

	static MockHttpServletRequest request(String method, String path) {
		return new BlockRequest(method, path);
	}

	static MockHttpServletResponse response() {
		return new BlockResponse();
	}

	private static final class BlockRequest extends MockHttpServletRequest {

		BlockRequest(String method, String path) {
			super(SERVLET_CONTEXT, method, path);
		}

		@Override
		public ServletInputStream getInputStream() {
			byte[] content = getContentAsByteArray();
			ByteArrayInputStream in = new ByteArrayInputStream((content != null) ? content : new byte[0]);
			return new ServletInputStream() {

				@Override
				public int read() {
					return in.read();
				}

				@Override
				public int read(byte[] b, int off, int len) {
					return in.read(b, off, len);
				}

				@Override
				public boolean isFinished() {
					return in.available() == 0;
				}

				@Override
				public boolean isReady() {
					return true;
				}

				@Override
				public void setReadListener(ReadListener listener) {
					throw new UnsupportedOperationException();
				}

			};
		}

	}

	private static final class BlockResponse extends MockHttpServletResponse {

		private final FastByteArrayOutputStream body = new FastByteArrayOutputStream();

		private final ServletOutputStream outputStream = new ServletOutputStream() {

			@Override
			public void write(int b) throws IOException {
				BlockResponse.this.body.write(b);
			}

			@Override
			public void write(byte[] b, int off, int len) throws IOException {
				BlockResponse.this.body.write(b, off, len);
			}

			@Override
			public boolean isReady() {
				return true;
			}

			@Override
			public void setWriteListener(WriteListener listener) {
				throw new UnsupportedOperationException();
			}

		};

		@Override
		public ServletOutputStream getOutputStream() {
			return this.outputStream;
		}

		@Override
		public byte[] getContentAsByteArray() {
			return this.body.toByteArray();
		}

	}

}
