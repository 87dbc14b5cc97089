package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.Part;
import org.jspecify.annotations.Nullable;

import org.springframework.http.MediaType;

import dev.modelgate.idempotency.core.IdempotencyOutcome;
import dev.modelgate.idempotency.core.internal.ByteChunks;
import dev.modelgate.idempotency.core.internal.CanonicalBody;
import dev.modelgate.idempotency.core.internal.RequestFingerprint;
import dev.modelgate.idempotency.web.IdempotencyProblem;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.internal.MatchedPath;

/**
 * Reads the body of a keyed request, within {@code max-request-size}, so that it can be fingerprinted
 * and still be read by the handler; answers either the request to pass on with its fingerprint, or
 * why it is refused.
 */
final class KeyedRequestReader {

	private final long maxBytes;

	KeyedRequestReader(long maxBytes) {
		this.maxBytes = maxBytes;
	}

	KeyedRequest read(HttpServletRequest request, IdempotentEndpoint endpoint) {
		MediaType contentType = contentType(request);
		if (contentType != null && MediaType.MULTIPART_FORM_DATA.includes(contentType)) {
			return readParts(request);
		}
		BufferedRequest buffered;
		try {
			buffered = BufferedRequest.read(request, this.maxBytes);
		}
		catch (IOException | IllegalStateException ex) {
			return KeyedRequest.unreadable(ex);
		}
		if (buffered == null) {
			return KeyedRequest.tooLarge(this.maxBytes);
		}
		ByteChunks body = buffered.body();
		CanonicalBody canonical = isJson(contentType) ? CanonicalBody.json(body, endpoint.ignoreFields())
				: CanonicalBody.bytes(body);
		return KeyedRequest.read(buffered, fingerprint(request, canonical));
	}

	/** Multipart bodies are parsed by the container, so that the handler can still read the parts. */
	private KeyedRequest readParts(HttpServletRequest request) {
		if (request.getContentLengthLong() > this.maxBytes) {
			return KeyedRequest.tooLarge(this.maxBytes);
		}
		List<CanonicalBody.Part> parts = new ArrayList<>();
		long total = 0;
		try {
			for (Part part : request.getParts()) {
				total += part.getSize();
				if (total > this.maxBytes) {
					return KeyedRequest.tooLarge(this.maxBytes);
				}
				String fileName = (part.getSubmittedFileName() != null) ? part.getSubmittedFileName() : "";
				parts.add(new CanonicalBody.Part(part.getName(), fileName, part.getInputStream().readAllBytes()));
			}
		}
		catch (IOException | ServletException | IllegalStateException ex) {
			return isContainerSizeLimit(ex) ? KeyedRequest.tooLarge(this.maxBytes) : KeyedRequest.unreadable(ex);
		}
		return KeyedRequest.read(request, fingerprint(request, CanonicalBody.parts(parts)));
	}

	/**
	 * The request path, not the route pattern, goes into the fingerprint: path variables are part of
	 * the request, so {@code /orders/7/cancel} and {@code /orders/8/cancel} under one key are a key
	 * reuse, never a replay of the other's response. It is the path as Spring MVC matched it
	 * ({@link MatchedPath}), so that spellings of one path that reach the same handler with the same
	 * path variables are one request.
	 */
	private static String fingerprint(HttpServletRequest request, CanonicalBody body) {
		return RequestFingerprint.of(request.getMethod(), MatchedPath.of(request.getRequestURI()),
				request.getQueryString(), body);
	}

	/**
	 * Whether a container refused a multipart body for its own size limits (Tomcat's
	 * {@code FileSizeLimitExceededException}, Jetty's and Undertow's equivalents). The Servlet API wraps
	 * them in the same {@code IllegalStateException} as any other parsing failure, and they share no
	 * type, so their names are the only portable way to tell a 413 from a 400.
	 */
	private static boolean isContainerSizeLimit(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			String name = cause.getClass().getSimpleName();
			if (name.contains("SizeLimitExceeded") || name.contains("SizeException")) {
				return true;
			}
		}
		return false;
	}

	private static @Nullable MediaType contentType(HttpServletRequest request) {
		String value = request.getContentType();
		if (value == null) {
			return null;
		}
		try {
			return MediaType.parseMediaType(value);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	private static boolean isJson(@Nullable MediaType contentType) {
		return contentType != null && (MediaType.APPLICATION_JSON.isCompatibleWith(contentType)
				|| "json".equals(contentType.getSubtypeSuffix()));
	}

	/**
	 * A keyed request once its body is read: the request as the handler will see it and its
	 * fingerprint, or why it is refused and the problem that says so.
	 */
	record KeyedRequest(@Nullable HttpServletRequest request, @Nullable String fingerprint,
			@Nullable IdempotencyOutcome refusal, @Nullable IdempotencyProblem problem) {

		static KeyedRequest read(HttpServletRequest request, String fingerprint) {
			return new KeyedRequest(request, fingerprint, null, null);
		}

		static KeyedRequest tooLarge(long maxBytes) {
			return new KeyedRequest(null, null, IdempotencyOutcome.TOO_LARGE, IdempotencyProblem.requestTooLarge(maxBytes));
		}

		static KeyedRequest unreadable(Exception failure) {
			return new KeyedRequest(null, null, IdempotencyOutcome.UNREADABLE,
					IdempotencyProblem.requestUnreadable(failure.getClass().getSimpleName()));
		}

		boolean isRefused() {
			return this.refusal != null;
		}

	}

}
