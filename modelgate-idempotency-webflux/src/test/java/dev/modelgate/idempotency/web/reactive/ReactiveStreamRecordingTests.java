package dev.modelgate.idempotency.web.reactive;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;

import static dev.modelgate.idempotency.web.reactive.EngineFixture.body;
import static dev.modelgate.idempotency.web.reactive.EngineFixture.endpoint;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Server-Sent Events under a key: recorded event by event as they stream, replayed after the end,
 * followed live by a duplicate, resumed after {@code Last-Event-ID}.
 */
class ReactiveStreamRecordingTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private final EngineFixture fixture = new EngineFixture();

	private final AtomicInteger runs = new AtomicInteger();

	@Test
	void streamIsRecordedAndReplayedAfterItsEndWithoutRunningHandler() {
		MockServerWebExchange first = request("k-1", null);
		StepVerifier.create(handle(first, Flux.just("data: a\n\n", "data: b\n\n"))).expectComplete().verify(TIMEOUT);
		MockServerWebExchange retry = request("k-1", null);
		StepVerifier.create(handle(retry, Flux.just("data: never\n\n"))).expectComplete().verify(TIMEOUT);

		assertThat(this.runs).hasValue(1);
		assertThat(first.getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(events(first)).isEqualTo("id: 1\ndata: a\n\nid: 2\ndata: b\n\n");
		assertThat(retry.getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(retry.getResponse().getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(retry.getResponse().getHeaders().getContentType().isCompatibleWith(MediaType.TEXT_EVENT_STREAM))
			.isTrue();
		assertThat(body(retry)).isEqualTo(body(first));
	}

	@Test
	void retryWithLastEventIdResumesAfterIt() {
		MockServerWebExchange first = request("k-1", null);
		StepVerifier.create(handle(first, Flux.just("data: a\n\n", "data: b\n\n", "data: c\n\n")))
			.expectComplete()
			.verify(TIMEOUT);
		String firstId = body(first).lines().findFirst().orElseThrow().substring("id: ".length());
		MockServerWebExchange resumed = request("k-1", firstId);
		StepVerifier.create(handle(resumed, Flux.empty())).expectComplete().verify(TIMEOUT);

		assertThat(this.runs).hasValue(1);
		assertThat(events(resumed)).isEqualTo("id: 2\ndata: b\n\nid: 3\ndata: c\n\n");
	}

	@Test
	void duplicateWhileTheStreamRunsAttachesAndGetsTheWholeStream() throws Exception {
		Sinks.Many<String> events = Sinks.many().unicast().onBackpressureBuffer();
		MockServerWebExchange first = request("k-1", null);
		CompletableFuture<Void> firstDone = handle(first, events.asFlux()).toFuture();
		events.tryEmitNext("data: a\n\n");

		MockServerWebExchange duplicate = request("k-1", null);
		CompletableFuture<Void> duplicateDone = handle(duplicate, Flux.just("data: never\n\n")).toFuture();
		events.tryEmitNext("data: b\n\n");
		events.tryEmitComplete();
		firstDone.get(5, TimeUnit.SECONDS);
		duplicateDone.get(5, TimeUnit.SECONDS);

		assertThat(this.runs).hasValue(1);
		assertThat(duplicate.getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(duplicate.getResponse().getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(events(duplicate)).isEqualTo("id: 1\ndata: a\n\nid: 2\ndata: b\n\n");
		assertThat(body(first)).isEqualTo(body(duplicate));
	}

	@Test
	void clientThatLeavesMidStreamDoesNotTruncateTheRecord() {
		Sinks.Many<String> events = Sinks.many().unicast().onBackpressureBuffer();
		Disposable client = handle(request("k-1", null), events.asFlux()).subscribe();
		events.tryEmitNext("data: a\n\n");
		client.dispose();
		events.tryEmitNext("data: b\n\n");
		events.tryEmitComplete();

		MockServerWebExchange retry = request("k-1", null);
		StepVerifier.create(handle(retry, Flux.just("data: never\n\n"))).expectComplete().verify(TIMEOUT);

		assertThat(this.runs).hasValue(1);
		assertThat(retry.getResponse().getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(events(retry)).isEqualTo("id: 1\ndata: a\n\nid: 2\ndata: b\n\n");
	}

	/** The body with the event ids' per-stream suffix ({@code id: 1.<stream>}) left out. */
	private static String events(MockServerWebExchange exchange) {
		return body(exchange).replaceAll("(?m)^(id: \\d+)\\.\\S*$", "$1");
	}

	private Mono<Void> handle(ServerWebExchange exchange, Flux<String> events) {
		Function<ServerWebExchange, Mono<Void>> handler = (running) -> Mono.defer(() -> {
			this.runs.incrementAndGet();
			ServerHttpResponse response = running.getResponse();
			response.setStatusCode(HttpStatus.OK);
			response.getHeaders().setContentType(MediaType.TEXT_EVENT_STREAM);
			return response.writeAndFlushWith(events.map((event) -> Mono
				.fromSupplier(() -> response.bufferFactory().wrap(event.getBytes(StandardCharsets.UTF_8)))));
		});
		return this.fixture.engine.handle(exchange, endpoint(), handler);
	}

	private static MockServerWebExchange request(String key, @Nullable String lastEventId) {
		MockServerHttpRequest.BodyBuilder request = MockServerHttpRequest.post("/orders")
			.header(EngineFixture.KEY_HEADER, key)
			.accept(MediaType.TEXT_EVENT_STREAM)
			.contentType(MediaType.APPLICATION_JSON);
		if (lastEventId != null) {
			request.header("Last-Event-ID", lastEventId);
		}
		return MockServerWebExchange.from(request.body(EngineFixture.readableOnce("{\"stream\":true}")));
	}

}
