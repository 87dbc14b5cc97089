package dev.modelgate.idempotency.web;

import java.util.Collection;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;

import dev.modelgate.idempotency.core.CanonicalBody;
import dev.modelgate.idempotency.core.IdempotencyOutcome;
import dev.modelgate.idempotency.core.JsonPointer;
import dev.modelgate.idempotency.core.RequestFingerprint;

/**
 * The body of a keyed request, read within {@code max-request-size} so that it can be fingerprinted
 * and still be read by the handler, with its fingerprint; or why it is refused.
 *
 * @param bytes the body
 * @param fingerprint the request's fingerprint
 * @param refusal why it is refused, or {@code null}
 * @param problem the problem that says so, or {@code null}
 */
record KeyedBody(byte[] bytes, @Nullable String fingerprint, @Nullable IdempotencyOutcome refusal,
		@Nullable IdempotencyProblem problem) {

	private static final byte[] EMPTY = new byte[0];

	boolean isRefused() {
		return this.refusal != null;
	}

	/**
	 * Reads the body: a declared length over the limit is refused before a byte is read, an undeclared
	 * one as soon as the limit is passed.
	 */
	static Mono<KeyedBody> read(ServerHttpRequest request, long maxBytes, Collection<JsonPointer> ignoreFields) {
		long declared = request.getHeaders().getContentLength();
		if (declared > maxBytes) {
			return Mono.just(tooLarge(maxBytes));
		}
		int limit = (int) Math.min(maxBytes, Integer.MAX_VALUE - 8);
		return DataBufferUtils.join(request.getBody(), limit)
			.map(KeyedBody::drain)
			.defaultIfEmpty(EMPTY)
			.map((bytes) -> new KeyedBody(bytes, fingerprint(request, bytes, ignoreFields), null, null))
			.onErrorResume(DataBufferLimitException.class, (ex) -> Mono.just(tooLarge(maxBytes)))
			.onErrorResume((ex) -> !(ex instanceof DataBufferLimitException),
					(ex) -> Mono.just(new KeyedBody(EMPTY, null, IdempotencyOutcome.UNREADABLE,
							IdempotencyProblem.requestUnreadable(ex.getClass().getSimpleName()))));
	}

	private static KeyedBody tooLarge(long maxBytes) {
		return new KeyedBody(EMPTY, null, IdempotencyOutcome.TOO_LARGE, IdempotencyProblem.requestTooLarge(maxBytes));
	}

	private static byte[] drain(DataBuffer buffer) {
		try {
			byte[] bytes = new byte[buffer.readableByteCount()];
			buffer.read(bytes);
			return bytes;
		}
		finally {
			DataBufferUtils.release(buffer);
		}
	}

	/**
	 * As the servlet filter fingerprints: the method, the request path as it is matched
	 * ({@link MatchedPath}, so spellings of one path that reach one handler are one request), the
	 * canonical query, and the body, canonical JSON when it is declared JSON.
	 */
	private static String fingerprint(ServerHttpRequest request, byte[] bytes, Collection<JsonPointer> ignoreFields) {
		MediaType contentType = contentType(request);
		CanonicalBody body = isJson(contentType) ? CanonicalBody.json(bytes, 0, bytes.length, ignoreFields)
				: CanonicalBody.bytes(bytes);
		return RequestFingerprint.of(request.getMethod().name(), MatchedPath.of(request.getPath().value()),
				request.getURI().getRawQuery(), body);
	}

	private static @Nullable MediaType contentType(ServerHttpRequest request) {
		try {
			return request.getHeaders().getContentType();
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	private static boolean isJson(@Nullable MediaType contentType) {
		return contentType != null && (MediaType.APPLICATION_JSON.isCompatibleWith(contentType)
				|| "json".equals(contentType.getSubtypeSuffix()));
	}

}
