package dev.modelgate.idempotency.web.servlet;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

import org.springframework.http.MediaType;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;

import dev.modelgate.idempotency.core.internal.ByteChunks;

/**
 * A request whose body was read once, up to a size cap, and can be read again by the handler every
 * usual way: {@code getInputStream()}, {@code getReader()}, or, for a URL-encoded form, the
 * parameter methods. The body is held in {@link ByteChunks}, never in one array its own size, so
 * that large bodies read concurrently do not become humongous objects in G1.
 */
final class BufferedRequest extends HttpServletRequestWrapper {

	private final ByteChunks body;

	private Map<String, String[]> parameters;

	private BufferedRequest(HttpServletRequest request, ByteChunks body) {
		super(request);
		this.body = body;
	}

	/**
	 * Reads the body of {@code request}.
	 * @return the buffered request, or {@code null} when the body is longer than {@code maxBytes}
	 */
	static BufferedRequest read(HttpServletRequest request, long maxBytes) throws IOException {
		long declared = request.getContentLengthLong();
		if (declared > maxBytes) {
			return null;
		}
		// Read one byte past the cap, so that a body of exactly maxBytes is told apart from a longer one.
		// The declared length only sizes the last chunk: a body longer than declared is read on.
		InputStream in = new BoundedInputStream(request.getInputStream(), maxBytes + 1);
		ByteChunks body = ByteChunks.read(in, declared);
		if (body.length() > maxBytes) {
			return null;
		}
		return new BufferedRequest(request, body);
	}

	ByteChunks body() {
		return this.body;
	}

	@Override
	public ServletInputStream getInputStream() {
		return new ChunksServletInputStream(this.body.newInputStream());
	}

	@Override
	public BufferedReader getReader() {
		return new BufferedReader(new InputStreamReader(this.body.newInputStream(), charset()));
	}

	@Override
	public int getContentLength() {
		return this.body.length();
	}

	@Override
	public long getContentLengthLong() {
		return this.body.length();
	}

	@Override
	public String getParameter(String name) {
		String[] values = parameters().get(name);
		return (values != null) ? values[0] : null;
	}

	@Override
	public Map<String, String[]> getParameterMap() {
		return parameters();
	}

	@Override
	public Enumeration<String> getParameterNames() {
		return Collections.enumeration(parameters().keySet());
	}

	@Override
	public String[] getParameterValues(String name) {
		return parameters().get(name);
	}

	private Map<String, String[]> parameters() {
		if (this.parameters == null) {
			this.parameters = isFormPost() ? queryAndFormParameters() : super.getParameterMap();
		}
		return this.parameters;
	}

	private boolean isFormPost() {
		String contentType = getContentType();
		if (contentType == null) {
			return false;
		}
		try {
			return MediaType.APPLICATION_FORM_URLENCODED.includes(MediaType.parseMediaType(contentType));
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	/** Query parameters first, then the form's, as the servlet specification orders them. */
	private Map<String, String[]> queryAndFormParameters() {
		MultiValueMap<String, String> merged = new LinkedMultiValueMap<>();
		decodeInto(merged, getQueryString(), StandardCharsets.UTF_8);
		// The form's text is held whole anyway, as its parameters are.
		decodeInto(merged, new String(this.body.toByteArray(), StandardCharsets.ISO_8859_1), charset());
		Map<String, String[]> result = new LinkedHashMap<>();
		merged.forEach((name, values) -> result.put(name, values.toArray(String[]::new)));
		return Collections.unmodifiableMap(result);
	}

	private static void decodeInto(MultiValueMap<String, String> target, String encoded, Charset charset) {
		if (encoded == null || encoded.isEmpty()) {
			return;
		}
		for (String pair : encoded.split("&")) {
			if (pair.isEmpty()) {
				continue;
			}
			int equals = pair.indexOf('=');
			String name = (equals < 0) ? pair : pair.substring(0, equals);
			String value = (equals < 0) ? "" : pair.substring(equals + 1);
			target.add(decode(name, charset), decode(value, charset));
		}
	}

	private static String decode(String component, Charset charset) {
		// The body was read as ISO-8859-1 so that percent-escapes decode in the request's own charset.
		String bytesAsText = new String(component.getBytes(StandardCharsets.ISO_8859_1), charset);
		try {
			return URLDecoder.decode(bytesAsText, charset);
		}
		catch (IllegalArgumentException ex) {
			return bytesAsText;
		}
	}

	private Charset charset() {
		String encoding = getCharacterEncoding();
		try {
			return (encoding != null) ? Charset.forName(encoding) : StandardCharsets.UTF_8;
		}
		catch (IllegalArgumentException ex) {
			return StandardCharsets.UTF_8;
		}
	}

	private static final class ChunksServletInputStream extends ServletInputStream {

		private final InputStream in;

		ChunksServletInputStream(InputStream in) {
			this.in = in;
		}

		@Override
		public int read() throws IOException {
			return this.in.read();
		}

		@Override
		public int read(byte[] b, int off, int len) throws IOException {
			return this.in.read(b, off, len);
		}

		@Override
		public boolean isFinished() {
			try {
				return this.in.available() == 0;
			}
			catch (IOException ex) {
				// A stream over chunks in memory does not fail; the signature says it could.
				throw new UncheckedIOException(ex);
			}
		}

		@Override
		public boolean isReady() {
			return true;
		}

		@Override
		public void setReadListener(ReadListener listener) {
			throw new IllegalStateException("The body was already read for fingerprinting; read it blocking");
		}

	}

	/** Stops after {@code limit} bytes, so an endless body cannot exhaust memory. */
	private static final class BoundedInputStream extends InputStream {

		private final InputStream in;

		private long remaining;

		BoundedInputStream(InputStream in, long limit) {
			this.in = in;
			this.remaining = limit;
		}

		@Override
		public int read() throws IOException {
			if (this.remaining <= 0) {
				return -1;
			}
			int b = this.in.read();
			if (b >= 0) {
				this.remaining--;
			}
			return b;
		}

		@Override
		public int read(byte[] b, int off, int len) throws IOException {
			if (this.remaining <= 0) {
				return -1;
			}
			int n = this.in.read(b, off, (int) Math.min(len, this.remaining));
			if (n > 0) {
				this.remaining -= n;
			}
			return n;
		}

	}

}
