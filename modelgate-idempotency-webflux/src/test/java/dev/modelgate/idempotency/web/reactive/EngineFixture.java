package dev.modelgate.idempotency.web.reactive;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyRecord;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamSlice;
import dev.modelgate.idempotency.core.internal.BlockingIdempotencyStoreAdapter;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.KeyedRequestSettings;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.StatusResponsePolicy;

/**
 * A {@link ReactiveIdempotencyEngine} wired as {@code ModelgateIdempotencyWebFluxAutoConfiguration}
 * wires it (the blocking store behind a {@link BlockingIdempotencyStoreAdapter}, the default response
 * policy, the problem renderer over the default codecs), over a memory store whose calls are counted,
 * and a handler that counts its runs.
 */
final class EngineFixture {

	static final String KEY_HEADER = "Idempotency-Key";

	final CountingStore store;

	final ReactiveIdempotencyEngine engine;

	final CountingHandler handler = new CountingHandler();

	EngineFixture() {
		this(new InMemoryIdempotencyStore());
	}

	EngineFixture(IdempotencyStore delegate) {
		this.store = new CountingStore(delegate);
		this.engine = new ReactiveIdempotencyEngine(
				BlockingIdempotencyStoreAdapter.create(this.store, Duration.ofSeconds(2), 2, 16),
				new DefaultReactiveClientIdentityResolver(null),
				new StatusResponsePolicy(new java.util.HashSet<>(StatusResponsePolicy.DEFAULT_RELEASE_STATUSES), false),
				new ReactiveProblemDetailRenderer(ServerCodecConfigurer.create().getWriters()),
				new ReplayHeaders(List.of()),
				new KeyedRequestSettings(KEY_HEADER, 255, 1024 * 1024, 1024 * 1024, Duration.ofSeconds(1), 422));
	}

	static IdempotentEndpoint endpoint(boolean required, Duration waitTimeout) {
		return endpoint(required, waitTimeout, true);
	}

	static IdempotentEndpoint endpoint(boolean required, Duration waitTimeout, boolean attachToStream) {
		return new IdempotentEndpoint("/orders", "/orders", required, Duration.ofHours(24), Duration.ofSeconds(30),
				waitTimeout, List.of(), Idempotent.StoreFailure.REJECT, attachToStream);
	}

	static IdempotentEndpoint endpoint() {
		return endpoint(false, Duration.ZERO);
	}

	static MockServerWebExchange post(@Nullable String key, String json) {
		MockServerHttpRequest.BodyBuilder request = MockServerHttpRequest.post("/orders")
			.contentType(MediaType.APPLICATION_JSON);
		if (key != null) {
			request.header(KEY_HEADER, key);
		}
		return MockServerWebExchange.from(request.body(readableOnce(json)));
	}

	/**
	 * A body that can be subscribed to once, as a server's connection: the mock request's own body can
	 * be read again, which would hide a handler handed the body the engine already consumed.
	 */
	static Flux<DataBuffer> readableOnce(String text) {
		Sinks.Many<DataBuffer> body = Sinks.many().unicast().onBackpressureBuffer();
		body.tryEmitNext(DefaultDataBufferFactory.sharedInstance.wrap(text.getBytes(StandardCharsets.UTF_8)));
		body.tryEmitComplete();
		return body.asFlux();
	}

	Mono<Void> handle(ServerWebExchange exchange, IdempotentEndpoint endpoint) {
		return this.engine.handle(exchange, endpoint, this.handler);
	}

	static String body(MockServerWebExchange exchange) {
		return exchange.getResponse().getBodyAsString().block(Duration.ofSeconds(5));
	}

	/**
	 * The handler: counts its runs, waits for {@link #gate} when one is set, then answers
	 * {@link #status} with a JSON body that echoes the request body it read, a replayable header and
	 * one that must never be replayed.
	 */
	static final class CountingHandler implements Function<ServerWebExchange, Mono<Void>> {

		final AtomicInteger runs = new AtomicInteger();

		volatile HttpStatus status = HttpStatus.CREATED;

		volatile Mono<Void> gate = Mono.empty();

		volatile @Nullable RuntimeException failure;

		@Override
		public Mono<Void> apply(ServerWebExchange exchange) {
			return Mono.defer(() -> {
				int run = this.runs.incrementAndGet();
				RuntimeException failure = this.failure;
				if (failure != null) {
					return Mono.error(failure);
				}
				return this.gate.then(DataBufferUtils.join(exchange.getRequest().getBody())
					.map((buffer) -> {
						String text = buffer.toString(StandardCharsets.UTF_8);
						DataBufferUtils.release(buffer);
						return text;
					})
					.defaultIfEmpty("null")
					.flatMap((echo) -> write(exchange.getResponse(), run, echo)));
			});
		}

		private Mono<Void> write(ServerHttpResponse response, int run, String echo) {
			response.setStatusCode(this.status);
			response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
			response.getHeaders().set("Location", "/orders/" + run);
			response.getHeaders().set("Set-Cookie", "session=" + run);
			byte[] body = ("{\"run\":" + run + ",\"echo\":" + echo + "}").getBytes(StandardCharsets.UTF_8);
			return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
		}

	}

	/**
	 * A store that counts every call, and whose {@code begin} fails when told to. It delegates the
	 * stream calls too: a duplicate of a running request reads the record's stream to attach to it, and
	 * a store that cannot would send it down the store-failure path instead. Its calls never wait (as
	 * the memory store's), so the adapter calls it on the caller's thread.
	 */
	static final class CountingStore implements IdempotencyStore {

		final AtomicInteger calls = new AtomicInteger();

		final AtomicInteger releases = new AtomicInteger();

		final AtomicInteger completes = new AtomicInteger();

		final AtomicInteger renewals = new AtomicInteger();

		private final IdempotencyStore delegate;

		volatile @Nullable RuntimeException beginFailure;

		CountingStore(IdempotencyStore delegate) {
			this.delegate = delegate;
		}

		@Override
		public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			this.calls.incrementAndGet();
			RuntimeException failure = this.beginFailure;
			if (failure != null) {
				throw failure;
			}
			return this.delegate.begin(scope, fingerprint, token, leaseTtl);
		}

		@Override
		public boolean renew(String scope, String token, Duration leaseTtl) {
			this.calls.incrementAndGet();
			this.renewals.incrementAndGet();
			return this.delegate.renew(scope, token, leaseTtl);
		}

		@Override
		public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
			this.calls.incrementAndGet();
			this.completes.incrementAndGet();
			return this.delegate.complete(scope, token, outcome, ttl);
		}

		@Override
		public boolean release(String scope, String token) {
			this.calls.incrementAndGet();
			this.releases.incrementAndGet();
			return this.delegate.release(scope, token);
		}

		@Override
		public Optional<IdempotencyRecord> find(String scope) {
			this.calls.incrementAndGet();
			return this.delegate.find(scope);
		}

		@Override
		public boolean openStream(String scope, String token, byte[] head) {
			this.calls.incrementAndGet();
			return this.delegate.openStream(scope, token, head);
		}

		@Override
		public boolean appendEvents(String scope, String token, long fromSequence, List<byte[]> events) {
			this.calls.incrementAndGet();
			return this.delegate.appendEvents(scope, token, fromSequence, events);
		}

		@Override
		public boolean completeStream(String scope, String token, Duration ttl) {
			this.calls.incrementAndGet();
			return this.delegate.completeStream(scope, token, ttl);
		}

		@Override
		public Optional<StreamSlice> readStream(String scope, long afterSequence, int max) {
			this.calls.incrementAndGet();
			return this.delegate.readStream(scope, afterSequence, max);
		}

		@Override
		public Duration callTimeLimit() {
			return Duration.ZERO;
		}

	}

}
