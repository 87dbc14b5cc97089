package dev.modelgate.idempotency.web.reactive;

import java.util.List;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.ServerHttpResponse;

/** What a {@link CapturedResponse} does with a {@code text/event-stream} 2xx answer of its run. */
@FunctionalInterface
interface StreamRecording {

	/**
	 * @param captured the run's response, for its status and headers
	 * @param client the real response
	 * @param elements the answer, one list of buffers per flush
	 * @return completes when the client's response is done
	 */
	Mono<Void> record(CapturedResponse captured, ServerHttpResponse client, Flux<List<DataBuffer>> elements);

}
