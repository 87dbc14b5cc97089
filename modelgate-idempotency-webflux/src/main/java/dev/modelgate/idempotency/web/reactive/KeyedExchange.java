package dev.modelgate.idempotency.web.reactive;

import java.util.Map;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.ResolvableType;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.MediaType;
import org.springframework.http.codec.FormHttpMessageReader;
import org.springframework.http.codec.HttpMessageReader;
import org.springframework.http.codec.multipart.DefaultPartHttpMessageReader;
import org.springframework.http.codec.multipart.MultipartHttpMessageReader;
import org.springframework.http.codec.multipart.Part;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebExchangeDecorator;

/**
 * The exchange a keyed request's handler sees: its body, read for the fingerprint, readable again,
 * and its form and multipart data read from that body.
 */
final class KeyedExchange {

	private KeyedExchange() {
	}

	/**
	 * {@return the exchange whose request body is {@code body}}
	 * @param exchange the server's exchange, whose body was read
	 * @param body the body
	 */
	static ServerWebExchange of(ServerWebExchange exchange, byte[] body) {
		return new BufferedBodyExchange(exchange,
				new BufferedBodyRequest(exchange.getRequest(), body, exchange.getResponse()), exchange.getResponse());
	}

	/**
	 * {@return the same exchange, its response replaced} One decorator over the server's exchange,
	 * where a mutated exchange would add another to every call the handler makes.
	 * @param exchange an exchange made by {@link #of}, or another
	 * @param response the response, held back for the run
	 */
	static ServerWebExchange withResponse(ServerWebExchange exchange, ServerHttpResponse response) {
		if (exchange instanceof BufferedBodyExchange buffered) {
			return new BufferedBodyExchange(buffered.getDelegate(), buffered.request, response);
		}
		return exchange.mutate().response(response).build();
	}

	/** The request as the handler sees it: the body read for the fingerprint, readable again. */
	private static final class BufferedBodyRequest extends ServerHttpRequestDecorator {

		private final byte[] body;

		private final ServerHttpResponse response;

		BufferedBodyRequest(ServerHttpRequest delegate, byte[] body, ServerHttpResponse response) {
			super(delegate);
			this.body = body;
			this.response = response;
		}

		@Override
		public Flux<DataBuffer> getBody() {
			return Flux.defer(() -> (this.body.length == 0)
					? Flux.empty()
					: Flux.just(this.response.bufferFactory().wrap(this.body)));
		}

	}

	/**
	 * The exchange as the handler sees it: its request's body read for the fingerprint, readable again,
	 * and its form and multipart data read from that body. A mutated exchange would answer those from
	 * the original request, whose body is consumed.
	 */
	private static final class BufferedBodyExchange extends ServerWebExchangeDecorator {

		private static final ResolvableType FORM_DATA = ResolvableType.forClassWithGenerics(MultiValueMap.class,
				String.class, String.class);

		private static final ResolvableType MULTIPART_DATA = ResolvableType.forClassWithGenerics(MultiValueMap.class,
				String.class, Part.class);

		private final ServerHttpRequest request;

		private final ServerHttpResponse response;

		private @Nullable Mono<MultiValueMap<String, String>> formData;

		private @Nullable Mono<MultiValueMap<String, Part>> multipartData;

		BufferedBodyExchange(ServerWebExchange delegate, ServerHttpRequest request, ServerHttpResponse response) {
			super(delegate);
			this.request = request;
			this.response = response;
		}

		@Override
		public ServerHttpRequest getRequest() {
			return this.request;
		}

		@Override
		public ServerHttpResponse getResponse() {
			return this.response;
		}

		/** Read from the buffered body when first asked for (few handlers ask), then the same each time. */
		@Override
		public Mono<MultiValueMap<String, String>> getFormData() {
			if (this.formData == null) {
				this.formData = readOnce(MediaType.APPLICATION_FORM_URLENCODED, new FormHttpMessageReader(), FORM_DATA);
			}
			return this.formData;
		}

		@Override
		public Mono<MultiValueMap<String, Part>> getMultipartData() {
			if (this.multipartData == null) {
				this.multipartData = readOnce(MediaType.MULTIPART_FORM_DATA,
						new MultipartHttpMessageReader(new DefaultPartHttpMessageReader()), MULTIPART_DATA);
			}
			return this.multipartData;
		}

		/** The body as {@code type} when its content type is {@code accepted}, else an empty map; read once. */
		private <V> Mono<MultiValueMap<String, V>> readOnce(MediaType accepted,
				HttpMessageReader<MultiValueMap<String, V>> reader, ResolvableType type) {
			MediaType contentType = KeyedBody.contentType(this.request);
			if (contentType == null || !accepted.isCompatibleWith(contentType)) {
				return Mono.fromSupplier(LinkedMultiValueMap::new);
			}
			return reader.readMono(type, this.request, Map.of())
				.switchIfEmpty(Mono.fromSupplier(LinkedMultiValueMap::new))
				.cache();
		}
	}

}
