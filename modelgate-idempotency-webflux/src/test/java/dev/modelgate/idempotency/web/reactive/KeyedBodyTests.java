package dev.modelgate.idempotency.web.reactive;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferWrapper;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.core.io.buffer.PooledDataBuffer;
import org.springframework.http.MediaType;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;

import dev.modelgate.idempotency.core.IdempotencyOutcome;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a keyed request's body is read: whole, in order, however it is cut into buffers, every buffer
 * released once read; refused past the limit, declared or not.
 */
class KeyedBodyTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private final List<Buffer> buffers = new ArrayList<>();

	@Test
	void bodyInSeveralBuffersWithoutADeclaredLengthIsReadWholeAndEveryBufferReleased() {
		KeyedBody body = read(request(-1, "{\"item\":", "\"book\",", "\"qty\":2}"), 1024);

		assertThat(body.isRefused()).isFalse();
		assertThat(new String(body.bytes(), StandardCharsets.UTF_8)).isEqualTo("{\"item\":\"book\",\"qty\":2}");
		assertThat(body.fingerprint()).isNotNull();
		assertThat(this.buffers).allMatch(Buffer::released);
	}

	@Test
	void theSameBodyCutDifferentlyHasTheSameFingerprint() {
		KeyedBody whole = read(request(23, "{\"item\":\"book\",\"qty\":2}"), 1024);
		KeyedBody cut = read(request(-1, "{\"item\":\"bo", "ok\",\"qty\":2}"), 1024);

		assertThat(cut.fingerprint()).isEqualTo(whole.fingerprint());
	}

	@Test
	void bodyLongerThanItsDeclaredLengthIsReadWhole() {
		KeyedBody body = read(request(4, "{\"item\":", "\"book\"}"), 1024);

		assertThat(new String(body.bytes(), StandardCharsets.UTF_8)).isEqualTo("{\"item\":\"book\"}");
	}

	@Test
	void emptyBodyIsReadAsNoBytes() {
		assertThat(read(request(0), 1024).bytes()).isEmpty();
		assertThat(read(request(-1), 1024).bytes()).isEmpty();
	}

	@Test
	void undeclaredBodyPastTheLimitIsRefusedAndEveryBufferItSentReleased() {
		KeyedBody body = read(request(-1, "x".repeat(600), "x".repeat(600), "x".repeat(600)), 1024);

		assertThat(body.refusal()).isEqualTo(IdempotencyOutcome.TOO_LARGE);
		assertThat(body.problem().status()).isEqualTo(413);
		assertThat(this.buffers).filteredOn(Buffer::sent).hasSizeGreaterThanOrEqualTo(2).allMatch(Buffer::released);
	}

	@Test
	void bodyOfExactlyTheLimitIsAccepted() {
		assertThat(read(request(-1, "x".repeat(512), "x".repeat(512)), 1024).bytes()).hasSize(1024);
	}

	@Test
	void declaredLengthPastTheLimitIsRefusedBeforeTheBodyIsRead() {
		AtomicBoolean subscribed = new AtomicBoolean();
		MockServerHttpRequest request = MockServerHttpRequest.post("/orders")
			.contentType(MediaType.APPLICATION_JSON)
			.contentLength(2048)
			.body(Flux.<DataBuffer>empty().doOnSubscribe((subscription) -> subscribed.set(true)));

		KeyedBody body = read(request, 1024);

		assertThat(body.refusal()).isEqualTo(IdempotencyOutcome.TOO_LARGE);
		assertThat(subscribed).isFalse();
	}

	private static KeyedBody read(MockServerHttpRequest request, long maxBytes) {
		return KeyedBody.read(request, maxBytes, Set.of()).block(TIMEOUT);
	}

	private MockServerHttpRequest request(long declared, String... parts) {
		MockServerHttpRequest.BodyBuilder builder = MockServerHttpRequest.post("/orders")
			.contentType(MediaType.APPLICATION_JSON);
		if (declared >= 0) {
			builder.contentLength(declared);
		}
		List<DataBuffer> body = new ArrayList<>();
		for (String part : parts) {
			Buffer buffer = new Buffer(DefaultDataBufferFactory.sharedInstance.wrap(part.getBytes(StandardCharsets.UTF_8)));
			this.buffers.add(buffer);
			body.add(buffer);
		}
		return builder.body(Flux.fromIterable(body).doOnNext((buffer) -> ((Buffer) buffer).sent = true));
	}

	/** A buffer that knows whether it was released, as a server's pooled buffer must be. */
	private static final class Buffer extends DataBufferWrapper implements PooledDataBuffer {

		private boolean sent;

		private int references = 1;

		Buffer(DataBuffer delegate) {
			super(delegate);
		}

		boolean sent() {
			return this.sent;
		}

		boolean released() {
			return this.references == 0;
		}

		@Override
		public boolean isAllocated() {
			return this.references > 0;
		}

		@Override
		public PooledDataBuffer retain() {
			this.references++;
			return this;
		}

		@Override
		public PooledDataBuffer touch(Object hint) {
			return this;
		}

		@Override
		public boolean release() {
			this.references--;
			return this.references == 0;
		}

	}

}
