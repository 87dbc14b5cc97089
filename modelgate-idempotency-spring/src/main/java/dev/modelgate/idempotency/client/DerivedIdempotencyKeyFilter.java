package dev.modelgate.idempotency.client;

import java.util.Optional;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.client.reactive.ClientHttpRequest;
import org.springframework.http.client.reactive.ClientHttpRequestDecorator;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;

import dev.modelgate.idempotency.core.IdempotencyContext;

/**
 * The {@code WebClient} counterpart of {@link DerivedIdempotencyKeyInterceptor}, with the same keys:
 * each call made while a keyed request or operation runs carries a derived {@code Idempotency-Key},
 * identical on every retry of the call ({@code retryWhen} subscribes again, and the key is derived
 * again from the same run and the same call) and on every re-run of the request.
 *
 * <pre class="code">
 * WebClient payments = WebClient.builder().baseUrl(paymentsUrl)
 *     .filter(new DerivedIdempotencyKeyFilter())
 *     .build();
 * payments.post().uri("/charges").attribute(DerivedIdempotencyKeyInterceptor.CALL, "charge")
 *     .bodyValue(charge).retrieve().toBodilessEntity()
 *     .retryWhen(Retry.backoff(3, Duration.ofMillis(100)));
 * </pre>
 *
 * <p>The run is found in Reactor's context under {@link IdempotencyContext#CONTEXT_KEY}, where the
 * WebFlux adapter puts it for the handler it runs, else on the subscribing thread (a servlet handler
 * or {@code @IdempotentOperation} that blocks on the call). The key of a call named by the request
 * attribute {@link DerivedIdempotencyKeyInterceptor#CALL} is set at once; the key of an unnamed call
 * needs its body, which is buffered as it is written and hashed before the headers go out.
 */
public class DerivedIdempotencyKeyFilter implements ExchangeFilterFunction {

	private final String headerName;

	/** Sends the key in {@value DerivedIdempotencyKeyInterceptor#DEFAULT_HEADER}. */
	public DerivedIdempotencyKeyFilter() {
		this(DerivedIdempotencyKeyInterceptor.DEFAULT_HEADER);
	}

	/**
	 * @param headerName the header the downstream API reads its key from
	 */
	public DerivedIdempotencyKeyFilter(String headerName) {
		if (headerName.isBlank()) {
			throw new IllegalArgumentException("The header name must not be blank");
		}
		this.headerName = headerName;
	}

	@Override
	public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
		if (request.headers().getFirst(this.headerName) != null) {
			return next.exchange(request);
		}
		return Mono.deferContextual((context) -> {
			Optional<IdempotencyContext.Held> held = context.getOrEmpty(IdempotencyContext.CONTEXT_KEY);
			Optional<IdempotencyContext.Held> running = held.isPresent() ? held : IdempotencyContext.current();
			if (running.isEmpty()) {
				return next.exchange(request);
			}
			String scope = running.get().scope();
			String named = DerivedCallKeys.named(scope, request.attribute(DerivedIdempotencyKeyInterceptor.CALL).orElse(null));
			if (named != null) {
				return next.exchange(ClientRequest.from(request).header(this.headerName, named).build());
			}
			return next.exchange(ClientRequest.from(request)
				.body((message, bodyContext) -> request.body().insert(new KeyedByBody(message, scope, request),
						bodyContext))
				.build());
		});
	}

	/** Holds the body back until it is complete, hashes it, sets the key, then writes it. */
	private final class KeyedByBody extends ClientHttpRequestDecorator {

		private final String scope;

		private final ClientRequest request;

		KeyedByBody(ClientHttpRequest delegate, String scope, ClientRequest request) {
			super(delegate);
			this.scope = scope;
			this.request = request;
		}

		@Override
		public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
			return DataBufferUtils.join(body).map((buffer) -> {
				byte[] bytes = new byte[buffer.readableByteCount()];
				buffer.read(bytes);
				DataBufferUtils.release(buffer);
				return bytes;
			}).defaultIfEmpty(new byte[0]).flatMap((bytes) -> {
				key(bytes);
				return super.writeWith(Mono.just(bufferFactory().wrap(bytes)));
			});
		}

		@Override
		public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
			return writeWith(Flux.from(body).concatMap(Flux::from));
		}

		@Override
		public Mono<Void> setComplete() {
			key(new byte[0]);
			return super.setComplete();
		}

		private void key(byte[] body) {
			getHeaders().set(DerivedIdempotencyKeyFilter.this.headerName, DerivedCallKeys.unnamed(this.scope,
					this.request.method().name(), this.request.url(), body));
		}

	}

}
