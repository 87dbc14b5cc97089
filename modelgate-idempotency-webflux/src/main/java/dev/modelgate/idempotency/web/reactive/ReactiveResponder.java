package dev.modelgate.idempotency.web.reactive;

import java.nio.ByteBuffer;
import java.time.Duration;

import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;

import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.IdempotencyProblem;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.internal.HttpAction;
import dev.modelgate.idempotency.web.internal.HttpDecision;

/** Writes what a decision answers without running anything: a replay, a refusal, "still running". */
final class ReactiveResponder {

	private final ReplayHeaders replayHeaders;

	private final String replayedHeaderName;

	private final ReactiveIdempotencyProblemRenderer problemRenderer;

	ReactiveResponder(ReplayHeaders replayHeaders, String replayedHeaderName,
			ReactiveIdempotencyProblemRenderer problemRenderer) {
		this.replayHeaders = replayHeaders;
		this.replayedHeaderName = replayedHeaderName;
		this.problemRenderer = problemRenderer;
	}

	Mono<Void> replay(HttpResponseRecord stored, ServerWebExchange exchange) {
		ServerHttpResponse response = exchange.getResponse();
		response.setStatusCode(HttpStatusCode.valueOf(stored.status()));
		stored.headers().forEach((name, values) -> {
			if (this.replayHeaders.isReplayed(name)) {
				values.forEach((value) -> response.getHeaders().add(name, value));
			}
		});
		response.getHeaders().set(this.replayedHeaderName, "true");
		response.getHeaders().setContentLength(stored.bodyLength());
		return response
			.writeWith(Mono.fromSupplier(() -> response.bufferFactory()
				.wrap(ByteBuffer.wrap(stored.payload(), stored.bodyOffset(), stored.bodyLength()))));
	}

	/** Answers 202: the key's request is still running, ask again after {@code retryAfter}. */
	Mono<Void> pending(Duration retryAfter, ServerWebExchange exchange) {
		ServerHttpResponse response = exchange.getResponse();
		response.setStatusCode(HttpStatusCode.valueOf(202));
		response.getHeaders().set("Cache-Control", "no-store");
		response.getHeaders().set("Retry-After", HttpDecision.retryAfterSeconds(retryAfter));
		return response.setComplete();
	}

	Mono<Void> reject(HttpAction refusal, ServerWebExchange exchange) {
		HttpAction.Reject reject = (HttpAction.Reject) refusal;
		if (reject.location() != null) {
			exchange.getResponse()
				.getHeaders()
				.set("Location", exchange.getRequest().getPath().contextPath().value() + reject.location());
		}
		return reject(reject.problem(), exchange);
	}

	/**
	 * Answers a refusal: the problem's status, {@code Cache-Control: no-store} (a refusal is about
	 * this moment, never to be cached), {@code Retry-After} in whole seconds when the problem has one,
	 * and the body in the renderer's format.
	 */
	Mono<Void> reject(IdempotencyProblem problem, ServerWebExchange exchange) {
		ServerHttpResponse response = exchange.getResponse();
		response.setStatusCode(HttpStatusCode.valueOf(problem.status()));
		response.getHeaders().set("Cache-Control", "no-store");
		if (problem.retryAfter() != null) {
			response.getHeaders().set("Retry-After", HttpDecision.retryAfterSeconds(problem.retryAfter()));
		}
		return this.problemRenderer.render(problem, exchange);
	}

}
