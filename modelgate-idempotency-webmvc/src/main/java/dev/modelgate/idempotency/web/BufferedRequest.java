package dev.modelgate.idempotency.web;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
import org.springframework.util.StreamUtils;

/**
 * A request whose body was read once, up to a size cap, and can be read again by the handler every
 * usual way: {@code getInputStream()}, {@code getReader()}, or, for a URL-encoded form, the
 * parameter methods.
 */
final class BufferedRequest extends HttpServletRequestWrapper {

	private final byte[] body;

	private Map<String, String[]> parameters;

	private BufferedRequest(HttpServletRequest request, byte[] body) {
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
		InputStream in = new BoundedInputStream(request.getInputStream(), maxBytes + 1);
		byte[] body = (declared >= 0 && declared < Integer.MAX_VALUE) ? readDeclared(in, (int) declared)
				: StreamUtils.copyToByteArray(in);
		if (body.length > maxBytes) {
			return null;
		}
		return new BufferedRequest(request, body);
	}

	/**
	 * Reads straight into an array of the declared length: growing a buffer and copying it out would
	 * leave twice the body in garbage, which adds up for large bodies read concurrently. A body that
	 * turns out longer than declared (a container would not let it through) is read on regardless.
	 */
	private static byte[] readDeclared(InputStream in, int declared) throws IOException {
		byte[] body = new byte[declared];
		int read = in.readNBytes(body, 0, declared);
		int next = (read == declared) ? in.read() : -1;
		if (next == -1) {
			return (read == declared) ? body : Arrays.copyOf(body, read);
		}
		ByteArrayOutputStream longer = new ByteArrayOutputStream(declared + 1);
		longer.write(body, 0, read);
		longer.write(next);
		in.transferTo(longer);
		return longer.toByteArray();
	}

	byte[] body() {
		return this.body;
	}

	@Override
	public ServletInputStream getInputStream() {
		return new ByteArrayServletInputStream(this.body);
	}

	@Override
	public BufferedReader getReader() {
		return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(this.body), charset()));
	}

	@Override
	public int getContentLength() {
		return this.body.length;
	}

	@Override
	public long getContentLengthLong() {
		return this.body.length;
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
		decodeInto(merged, new String(this.body, StandardCharsets.ISO_8859_1), charset());
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

	private static final class ByteArrayServletInputStream extends ServletInputStream {

		private final ByteArrayInputStream in;

		ByteArrayServletInputStream(byte[] body) {
			this.in = new ByteArrayInputStream(body);
		}

		@Override
		public int read() {
			return this.in.read();
		}

		@Override
		public int read(byte[] b, int off, int len) {
			return this.in.read(b, off, len);
		}

		@Override
		public boolean isFinished() {
			return this.in.available() == 0;
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
