package dev.modelgate.idempotency.web;

import java.util.List;
import java.util.Optional;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.ServerHttpResponse;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;

/** Recorded Server-Sent Events streams: recording a run's stream, following a recorded one. */
final class ReactiveStreams {

	private final AsyncIdempotencyStore store;

	private final ReplayHeaders replayHeaders;

	private final String replayedHeaderName;

	private final StreamSettings settings;

	private final Scheduler timers;

	ReactiveStreams(AsyncIdempotencyStore store, ReplayHeaders replayHeaders, String replayedHeaderName,
			StreamSettings settings, Scheduler timers) {
		this.store = store;
		this.replayHeaders = replayHeaders;
		this.replayedHeaderName = replayedHeaderName;
		this.settings = settings;
		this.timers = timers;
	}

	Mono<Void> record(ReactiveSettlement settlement, CapturedResponse captured, ServerHttpResponse client,
			Flux<List<DataBuffer>> elements, StreamReporting reporting) {
		return settlement.release("a text/event-stream response is delivered but not recorded")
			.then(client.writeAndFlushWith(elements.map(Flux::fromIterable)));
	}

	Mono<Optional<Mono<Void>>> follow(String scope, long afterSequence, ServerHttpResponse response) {
		return Mono.just(Optional.empty());
	}

}
