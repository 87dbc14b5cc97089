package dev.modelgate.idempotency.web.reactive;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.ResolvableType;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.http.codec.multipart.DefaultPartHttpMessageReader;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.http.codec.multipart.Part;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;

import dev.modelgate.idempotency.core.IdempotencyOutcome;
import dev.modelgate.idempotency.core.JsonPointer;
import dev.modelgate.idempotency.core.internal.CanonicalBody;
import dev.modelgate.idempotency.core.internal.RequestFingerprint;
import dev.modelgate.idempotency.web.IdempotencyProblem;
import dev.modelgate.idempotency.web.internal.MatchedPath;

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

	private static final ResolvableType PART = ResolvableType.forClass(Part.class);

	boolean isRefused() {
		return this.refusal != null;
	}

	/**
	 * Reads the body: a declared length over the limit is refused before a byte is read, an undeclared
	 * one as soon as the limit is passed. The buffers are copied into one array as they come and released
	 * at once (one copy, and one operator where joining them took several).
	 */
	static Mono<KeyedBody> read(ServerHttpRequest request, long maxBytes, Collection<JsonPointer> ignoreFields) {
		long declared = request.getHeaders().getContentLength();
		if (declared > maxBytes) {
			return Mono.just(tooLarge(maxBytes));
		}
		int limit = (int) Math.min(maxBytes, Integer.MAX_VALUE - 8);
		MediaType contentType = contentType(request);
		Mono<byte[]> bytes = request.getBody().collect(() -> new Bytes(limit, declared), Bytes::add).map(Bytes::array);
		Mono<KeyedBody> body = (contentType != null && MediaType.MULTIPART_FORM_DATA.includes(contentType))
				? bytes.flatMap((read) -> parts(request, read, limit)
					.map((parts) -> new KeyedBody(read, fingerprint(request, CanonicalBody.parts(parts)), null, null)))
				: bytes.map((read) -> new KeyedBody(read, fingerprint(request, isJson(contentType)
						? CanonicalBody.json(read, 0, read.length, ignoreFields) : CanonicalBody.bytes(read)), null, null));
		return body.onErrorResume((ex) -> Mono.just((ex instanceof DataBufferLimitException) ? tooLarge(maxBytes)
				: new KeyedBody(EMPTY, null, IdempotencyOutcome.UNREADABLE,
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

	/** A body's bytes as its buffers come, each released once copied; past the limit, a failure. */
	private static final class Bytes {

		private final int limit;

		private byte[] bytes;

		private int size;

		Bytes(int limit, long declared) {
			this.limit = limit;
			// The declared length when there is one (a body is rarely longer than declared; if it is, it grows).
			this.bytes = (declared == 0) ? EMPTY
					: new byte[(declared > 0 && declared <= limit) ? (int) declared : Math.min(limit, 1024)];
		}

		void add(DataBuffer buffer) {
			try {
				int length = buffer.readableByteCount();
				if (length > this.limit - this.size) {
					throw new DataBufferLimitException("Exceeded limit on max bytes to buffer : " + this.limit);
				}
				if (length > this.bytes.length - this.size) {
					this.bytes = Arrays.copyOf(this.bytes,
							(int) Math.min(this.limit, Math.max(this.size + (long) length, this.bytes.length * 2L)));
				}
				buffer.read(this.bytes, this.size, length);
				this.size += length;
			}
			finally {
				DataBufferUtils.release(buffer);
			}
		}

		byte[] array() {
			return (this.size == this.bytes.length) ? this.bytes : Arrays.copyOf(this.bytes, this.size);
		}

	}

	/**
	 * A multipart body part by part (name, file name, content), as the servlet filter reads it, so that a
	 * retry whose client chose another boundary is the same request. (A body declared JSON is
	 * fingerprinted as canonical JSON, any other as its bytes.)
	 */
	private static Mono<List<CanonicalBody.Part>> parts(ServerHttpRequest request, byte[] bytes, int limit) {
		DefaultPartHttpMessageReader reader = new DefaultPartHttpMessageReader();
		// Every part in memory: the body is already there, within max-request-size.
		reader.setMaxInMemorySize(limit);
		reader.setMaxDiskUsagePerPart(0);
		ServerHttpRequest again = new ServerHttpRequestDecorator(request) {
			@Override
			public Flux<DataBuffer> getBody() {
				return Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(bytes));
			}
		};
		return reader.read(PART, again, Map.of())
			.concatMap((part) -> DataBufferUtils.join(part.content())
				.map(KeyedBody::drain)
				.defaultIfEmpty(EMPTY)
				.map((content) -> new CanonicalBody.Part(part.name(),
						(part instanceof FilePart file) ? file.filename() : "", content)))
			.collectList();
	}

	/**
	 * As the servlet filter fingerprints: the method, the request path as it is matched
	 * ({@link MatchedPath}, so spellings of one path that reach one handler are one request), the
	 * canonical query, and the canonical body.
	 */
	private static String fingerprint(ServerHttpRequest request, CanonicalBody body) {
		return RequestFingerprint.of(request.getMethod().name(), MatchedPath.of(request.getPath().value()),
				request.getURI().getRawQuery(), body);
	}

	/** {@return the request's content type, or {@code null} when it has none or an invalid one} */
	static @Nullable MediaType contentType(ServerHttpRequest request) {
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
