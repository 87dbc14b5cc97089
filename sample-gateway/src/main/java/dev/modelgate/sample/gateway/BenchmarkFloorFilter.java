package dev.modelgate.sample.gateway;

import java.util.concurrent.atomic.LongAdder;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import dev.modelgate.idempotency.web.reactive.IdempotencyWebFilter;

/**
 * The least a WebFlux filter that records responses must do, for the load benchmark
 * ({@code benchmarks/load/gateway.sh}, kind f) to measure the stack's own floor beside the
 * idempotency filter: it reads the request body whole and hands the handler a request that serves it
 * again, and holds the response body until it ends before writing it in one piece. No key, no store,
 * no fingerprint, no copy. Only for {@link #PATH}, present only with
 * {@code modelgate.benchmark.enabled=true}.
 */
@Component
@ConditionalOnBooleanProperty("modelgate.benchmark.enabled")
class BenchmarkFloorFilter implements WebFilter, Ordered {

	static final String PATH = "/benchmark/webflux/floor/chat/completions";

	private final LongAdder held = new LongAdder();

	/** {@return how many responses this filter held and wrote whole} */
	long held() {
		return this.held.sum();
	}

	@Override
	public int getOrder() {
		return IdempotencyWebFilter.DEFAULT_ORDER;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (!PATH.equals(exchange.getRequest().getPath().value())) {
			return chain.filter(exchange);
		}
		return DataBufferUtils.join(exchange.getRequest().getBody())
			.switchIfEmpty(Mono.fromSupplier(() -> exchange.getResponse().bufferFactory().allocateBuffer(0)))
			.flatMap((body) -> chain.filter(exchange.mutate().request(servedAgain(exchange, body))
				.response(heldWhole(exchange))
				.build()));
	}

	private static ServerHttpRequest servedAgain(ServerWebExchange exchange, DataBuffer body) {
		return new ServerHttpRequestDecorator(exchange.getRequest()) {
			@Override
			public Flux<DataBuffer> getBody() {
				return Flux.just(body);
			}
		};
	}

	private ServerHttpResponse heldWhole(ServerWebExchange exchange) {
		return new ServerHttpResponseDecorator(exchange.getResponse()) {
			@Override
			public Mono<Void> writeWith(Publisher<? extends DataBuffer> answer) {
				return DataBufferUtils.join(answer).flatMap((whole) -> {
					BenchmarkFloorFilter.this.held.increment();
					return getDelegate().writeWith(Mono.just(whole));
				});
			}
		};
	}

}
