package dev.modelgate.idempotency.web.reactive;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.web.IdempotentEndpoint;

import static dev.modelgate.idempotency.web.reactive.EngineFixture.body;
import static dev.modelgate.idempotency.web.reactive.EngineFixture.endpoint;
import static dev.modelgate.idempotency.web.reactive.EngineFixture.post;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The state machine over mock exchanges: no application context, no server. The memory store answers
 * on the caller's thread, so everything up to the handler runs during the subscription; the waits
 * below are on real time because the coordinator's wait deadline is read from {@code System.nanoTime},
 * which virtual time does not move.
 */
class ReactiveIdempotencyEngineTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private final EngineFixture fixture = new EngineFixture();

	@Test
	void runsHandlerOnceAndReplaysItsResponseByteForByte() {
		MockServerWebExchange first = post("k-1", "{\"item\":\"book\"}");
		StepVerifier.create(this.fixture.handle(first, endpoint())).expectComplete().verify(TIMEOUT);
		String firstBody = body(first);

		MockServerWebExchange retry = post("k-1", "{\"item\":\"book\"}");
		StepVerifier.create(this.fixture.handle(retry, endpoint())).expectComplete().verify(TIMEOUT);

		assertThat(this.fixture.handler.runs).hasValue(1);
		assertThat(first.getResponse().getStatusCode()).isEqualTo(HttpStatus.CREATED);
		assertThat(firstBody).isEqualTo("{\"run\":1,\"echo\":{\"item\":\"book\"}}");
		assertThat(first.getResponse().getHeaders().getFirst("Idempotent-Replayed")).isNull();
		assertThat(retry.getResponse().getStatusCode()).isEqualTo(HttpStatus.CREATED);
		assertThat(retry.getResponse().getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(retry.getResponse().getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_JSON);
		assertThat(retry.getResponse().getHeaders().getFirst("Location")).isEqualTo("/orders/1");
		assertThat(retry.getResponse().getHeaders().get("Set-Cookie")).isNull();
		assertThat(body(retry)).isEqualTo(firstBody);
		assertThat(this.fixture.store.completes).hasValue(1);
	}

	@Test
	void heldResponseReachesTheServerAsOneValueSoHeadAndBodyLeaveInOneWrite() {
		// A Flux would be written by Reactor Netty as the head, then the body: two socket writes.
		List<Publisher<? extends DataBuffer>> written = new CopyOnWriteArrayList<>();
		MockServerWebExchange exchange = post("k-1", "{\"item\":\"book\"}");
		ServerHttpResponseDecorator server = new ServerHttpResponseDecorator(exchange.getResponse()) {
			@Override
			public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
				written.add(body);
				return super.writeWith(body);
			}
		};
		StepVerifier.create(this.fixture.handle(exchange.mutate().response(server).build(), endpoint()))
			.expectComplete()
			.verify(TIMEOUT);

		assertThat(written).hasSize(1);
		assertThat(written.get(0)).isInstanceOf(Mono.class);
		assertThat(body(exchange)).isEqualTo("{\"run\":1,\"echo\":{\"item\":\"book\"}}");
	}

	@Test
	void sameKeyWithJsonThatDiffersOnlyInKeyOrderAndWhiteSpaceIsReplayed() {
		StepVerifier.create(this.fixture.handle(post("k-1", "{\"a\":1,\"b\":2}"), endpoint()))
			.expectComplete()
			.verify(TIMEOUT);
		MockServerWebExchange retry = post("k-1", "{ \"b\" : 2, \"a\" : 1.0 }");
		StepVerifier.create(this.fixture.handle(retry, endpoint())).expectComplete().verify(TIMEOUT);

		assertThat(this.fixture.handler.runs).hasValue(1);
		assertThat(retry.getResponse().getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
	}

	@Test
	void sameKeyWithAnotherBodyIsRefusedWith422WithoutRunningHandler() {
		StepVerifier.create(this.fixture.handle(post("k-1", "{\"item\":\"book\"}"), endpoint()))
			.expectComplete()
			.verify(TIMEOUT);
		MockServerWebExchange reused = post("k-1", "{\"item\":\"lamp\"}");
		StepVerifier.create(this.fixture.handle(reused, endpoint())).expectComplete().verify(TIMEOUT);

		assertThat(this.fixture.handler.runs).hasValue(1);
		assertProblem(reused, 422, "idempotency_key_reused");
		assertThat(reused.getResponse().getHeaders().getFirst("Idempotent-Replayed")).isNull();
	}

	@Test
	void keyLongerThanTheLimitIsRefusedWith400() {
		assertKeyInvalid("k".repeat(256));
	}

	@Test
	void keyOfTheLongestLengthIsAccepted() {
		MockServerWebExchange exchange = post("k".repeat(255), "{}");
		StepVerifier.create(this.fixture.handle(exchange, endpoint())).expectComplete().verify(TIMEOUT);

		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.CREATED);
		assertThat(this.fixture.handler.runs).hasValue(1);
	}

	@Test
	void keyWithASpaceIsRefusedWith400() {
		assertKeyInvalid("a b");
	}

	@Test
	void keyWithNonAsciiCharactersIsRefusedWith400() {
		assertKeyInvalid("cl\u00e9");
	}

	@Test
	void blankKeyIsRefusedWith400() {
		assertKeyInvalid("   ");
	}

	@Test
	void repeatedKeyHeaderIsRefusedWith400() {
		MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.post("/orders")
			.header(EngineFixture.KEY_HEADER, "a", "b")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{}"));
		StepVerifier.create(this.fixture.handle(exchange, endpoint())).expectComplete().verify(TIMEOUT);

		assertProblem(exchange, 400, "idempotency_key_invalid");
		assertThat(this.fixture.handler.runs).hasValue(0);
		assertThat(this.fixture.store.calls).hasValue(0);
	}

	@Test
	void quotedAndPlainKeyAreTheSameKey() {
		StepVerifier.create(this.fixture.handle(post("abc", "{}"), endpoint())).expectComplete().verify(TIMEOUT);
		MockServerWebExchange retry = post("\"abc\"", "{}");
		StepVerifier.create(this.fixture.handle(retry, endpoint())).expectComplete().verify(TIMEOUT);

		assertThat(this.fixture.handler.runs).hasValue(1);
		assertThat(retry.getResponse().getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
	}

	@Test
	void missingKeyOnEndpointThatRequiresOneIsRefusedWith400() {
		MockServerWebExchange exchange = post(null, "{}");
		StepVerifier.create(this.fixture.handle(exchange, endpoint(true, Duration.ZERO)))
			.expectComplete()
			.verify(TIMEOUT);

		assertProblem(exchange, 400, "idempotency_key_missing");
		assertThat(this.fixture.handler.runs).hasValue(0);
		assertThat(this.fixture.store.calls).hasValue(0);
	}

	@Test
	void missingKeyOnEndpointThatDoesNotRequireOneRunsHandlerEveryTimeWithoutStoreCall() {
		for (int i = 0; i < 2; i++) {
			MockServerWebExchange exchange = post(null, "{\"item\":\"book\"}");
			StepVerifier.create(this.fixture.handle(exchange, endpoint())).expectComplete().verify(TIMEOUT);
			assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.CREATED);
			assertThat(body(exchange)).isEqualTo("{\"run\":" + (i + 1) + ",\"echo\":{\"item\":\"book\"}}");
		}

		assertThat(this.fixture.engine.canSkip(post(null, "{}").getRequest())).isTrue();
		assertThat(this.fixture.handler.runs).hasValue(2);
		assertThat(this.fixture.store.calls).hasValue(0);
	}

	/** A duplicate that does not ask for {@code text/event-stream} is refused on the attach path too. */
	@ParameterizedTest(name = "attachToStream={0}")
	@ValueSource(booleans = { true, false })
	void duplicateWhileFirstRunsIsRefusedWith409AndRetryAfter(boolean attachToStream) throws Exception {
		Sinks.Empty<Void> gate = Sinks.empty();
		this.fixture.handler.gate = gate.asMono();
		IdempotentEndpoint endpoint = endpoint(false, Duration.ZERO, attachToStream);
		MockServerWebExchange first = post("k-1", "{}");
		CompletableFuture<Void> firstDone = this.fixture.handle(first, endpoint).toFuture();
		assertThat(this.fixture.handler.runs).hasValue(1);

		MockServerWebExchange duplicate = post("k-1", "{}");
		StepVerifier.create(this.fixture.handle(duplicate, endpoint)).expectComplete().verify(TIMEOUT);

		assertProblem(duplicate, 409, "idempotency_request_in_progress");
		assertThat(duplicate.getResponse().getHeaders().getFirst("Retry-After")).isEqualTo("1");
		assertThat(firstDone).isNotDone();

		gate.tryEmitEmpty();
		firstDone.get(5, TimeUnit.SECONDS);
		assertThat(first.getResponse().getStatusCode()).isEqualTo(HttpStatus.CREATED);
		assertThat(this.fixture.handler.runs).hasValue(1);
	}

	@Test
	void waitingDuplicateGetsTheFirstResponseOnceItCompletes() throws Exception {
		Sinks.Empty<Void> gate = Sinks.empty();
		this.fixture.handler.gate = gate.asMono();
		MockServerWebExchange first = post("k-1", "{}");
		CompletableFuture<Void> firstDone = this.fixture.handle(first, endpoint(false, TIMEOUT)).toFuture();

		MockServerWebExchange duplicate = post("k-1", "{}");
		CompletableFuture<Void> duplicateDone = this.fixture.handle(duplicate, endpoint(false, TIMEOUT)).toFuture();
		assertThat(duplicateDone).isNotDone();

		gate.tryEmitEmpty();
		firstDone.get(5, TimeUnit.SECONDS);
		duplicateDone.get(5, TimeUnit.SECONDS);

		assertThat(this.fixture.handler.runs).hasValue(1);
		assertThat(duplicate.getResponse().getStatusCode()).isEqualTo(HttpStatus.CREATED);
		assertThat(duplicate.getResponse().getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(body(duplicate)).isEqualTo(body(first));
	}

	@Test
	void waitingDuplicateIsRefusedWith409WhenTheFirstOutlastsTheWait() throws Exception {
		Sinks.Empty<Void> gate = Sinks.empty();
		this.fixture.handler.gate = gate.asMono();
		CompletableFuture<Void> firstDone = this.fixture.handle(post("k-1", "{}"), endpoint(false, TIMEOUT))
			.toFuture();

		MockServerWebExchange duplicate = post("k-1", "{}");
		StepVerifier.create(this.fixture.handle(duplicate, endpoint(false, Duration.ofMillis(100))))
			.expectComplete()
			.verify(TIMEOUT);

		assertProblem(duplicate, 409, "idempotency_request_in_progress");
		assertThat(duplicate.getResponse().getHeaders().getFirst("Retry-After")).isEqualTo("1");
		gate.tryEmitEmpty();
		firstDone.get(5, TimeUnit.SECONDS);
		assertThat(this.fixture.handler.runs).hasValue(1);
	}

	@Test
	void clientThatLeavesBeforeTheAnswerDoesNotCancelTheRun() {
		Sinks.Empty<Void> gate = Sinks.empty();
		this.fixture.handler.gate = gate.asMono();
		Disposable client = this.fixture.handle(post("k-1", "{}"), endpoint()).subscribe();
		client.dispose();
		gate.tryEmitEmpty();

		MockServerWebExchange retry = post("k-1", "{}");
		StepVerifier.create(this.fixture.handle(retry, endpoint())).expectComplete().verify(TIMEOUT);

		assertThat(this.fixture.handler.runs).hasValue(1);
		assertThat(retry.getResponse().getStatusCode()).isEqualTo(HttpStatus.CREATED);
		assertThat(retry.getResponse().getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(body(retry)).isEqualTo("{\"run\":1,\"echo\":{}}");
	}

	@Test
	void firstResponseIsReportedOnceWhenItsClientLeavesBeforeTheRunEnds() {
		List<IdempotencyListener.ResponseKind> responses = new CopyOnWriteArrayList<>();
		this.fixture.engine.setListeners(List.of(new IdempotencyListener() {
			@Override
			public void onResponse(IdempotencyListener.ResponseKind kind, String method, String route,
					Duration duration) {
				responses.add(kind);
			}
		}));
		Sinks.Empty<Void> gate = Sinks.empty();
		this.fixture.handler.gate = gate.asMono();
		Disposable client = this.fixture.handle(post("k-1", "{}"), endpoint()).subscribe();
		client.dispose();
		gate.tryEmitEmpty();

		assertThat(this.fixture.handler.runs).hasValue(1);
		assertThat(this.fixture.store.completes).hasValue(1);
		assertThat(responses).containsExactly(IdempotencyListener.ResponseKind.FIRST);
	}

	@Test
	void handlerThatFailsAfterItsClientLeftReleasesTheKeyAndDropsNoError() {
		List<Throwable> dropped = new CopyOnWriteArrayList<>();
		Hooks.onErrorDropped(dropped::add);
		try {
			Sinks.Empty<Void> gate = Sinks.empty();
			this.fixture.handler.gate = gate.asMono();
			Disposable client = this.fixture.handle(post("k-1", "{}"), endpoint()).subscribe();
			client.dispose();
			gate.tryEmitError(new IllegalStateException("boom"));

			this.fixture.handler.gate = Mono.empty();
			MockServerWebExchange retry = post("k-1", "{}");
			StepVerifier.create(this.fixture.handle(retry, endpoint())).expectComplete().verify(TIMEOUT);

			assertThat(this.fixture.store.releases).hasValue(1);
			assertThat(this.fixture.handler.runs).hasValue(2);
			assertThat(dropped).isEmpty();
		}
		finally {
			Hooks.resetOnErrorDropped();
		}
	}

	@Test
	void bodyWrittenAsAStreamOfBuffersIsRecordedWholeAndReplayedByteForByte() {
		Function<ServerWebExchange, Mono<Void>> streaming = (exchange) -> {
			ServerHttpResponse response = exchange.getResponse();
			response.setStatusCode(HttpStatus.CREATED);
			response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
			return response.writeWith(Flux.just("{\"a\":", "1,", "\"b\":2}")
				.map((part) -> response.bufferFactory().wrap(part.getBytes(StandardCharsets.UTF_8))));
		};
		MockServerWebExchange first = post("k-1", "{}");
		StepVerifier.create(this.fixture.engine.handle(first, endpoint(), streaming)).expectComplete().verify(TIMEOUT);
		MockServerWebExchange retry = post("k-1", "{}");
		StepVerifier.create(this.fixture.engine.handle(retry, endpoint(), streaming)).expectComplete().verify(TIMEOUT);

		assertThat(body(first)).isEqualTo("{\"a\":1,\"b\":2}");
		assertThat(body(retry)).isEqualTo("{\"a\":1,\"b\":2}");
		assertThat(retry.getResponse().getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(this.fixture.store.completes).hasValue(1);
	}

	@Test
	void serverErrorIsDeliveredAndReleasesTheKeySoARetryRunsAgain() {
		this.fixture.handler.status = HttpStatus.SERVICE_UNAVAILABLE;
		MockServerWebExchange first = post("k-1", "{}");
		StepVerifier.create(this.fixture.handle(first, endpoint())).expectComplete().verify(TIMEOUT);
		assertThat(first.getResponse().getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
		assertThat(body(first)).isEqualTo("{\"run\":1,\"echo\":{}}");

		this.fixture.handler.status = HttpStatus.CREATED;
		MockServerWebExchange retry = post("k-1", "{}");
		StepVerifier.create(this.fixture.handle(retry, endpoint())).expectComplete().verify(TIMEOUT);

		assertThat(this.fixture.handler.runs).hasValue(2);
		assertThat(this.fixture.store.releases).hasValue(1);
		assertThat(retry.getResponse().getStatusCode()).isEqualTo(HttpStatus.CREATED);
		assertThat(retry.getResponse().getHeaders().getFirst("Idempotent-Replayed")).isNull();
	}

	@Test
	void tooManyRequestsReleasesTheKey() {
		this.fixture.handler.status = HttpStatus.TOO_MANY_REQUESTS;
		StepVerifier.create(this.fixture.handle(post("k-1", "{}"), endpoint())).expectComplete().verify(TIMEOUT);
		this.fixture.handler.status = HttpStatus.CREATED;
		StepVerifier.create(this.fixture.handle(post("k-1", "{}"), endpoint())).expectComplete().verify(TIMEOUT);

		assertThat(this.fixture.handler.runs).hasValue(2);
	}

	@Test
	void clientErrorIsRecordedAndReplayed() {
		this.fixture.handler.status = HttpStatus.BAD_REQUEST;
		StepVerifier.create(this.fixture.handle(post("k-1", "{}"), endpoint())).expectComplete().verify(TIMEOUT);
		MockServerWebExchange retry = post("k-1", "{}");
		StepVerifier.create(this.fixture.handle(retry, endpoint())).expectComplete().verify(TIMEOUT);

		assertThat(this.fixture.handler.runs).hasValue(1);
		assertThat(retry.getResponse().getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
		assertThat(retry.getResponse().getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
	}

	@Test
	void handlerErrorIsPropagatedAndReleasesTheKeySoARetryRunsAgain() {
		IllegalStateException failure = new IllegalStateException("boom");
		this.fixture.handler.failure = failure;
		StepVerifier.create(this.fixture.handle(post("k-1", "{}"), endpoint())).expectErrorMatches((ex) -> ex == failure)
			.verify(TIMEOUT);

		this.fixture.handler.failure = null;
		MockServerWebExchange retry = post("k-1", "{}");
		StepVerifier.create(this.fixture.handle(retry, endpoint())).expectComplete().verify(TIMEOUT);

		assertThat(this.fixture.handler.runs).hasValue(2);
		assertThat(this.fixture.store.releases).hasValue(1);
		assertThat(retry.getResponse().getStatusCode()).isEqualTo(HttpStatus.CREATED);
	}

	@Test
	void storeFailureOnBeginIsAnswered503WithRetryAfterWithoutRunningHandler() {
		this.fixture.store.beginFailure = new IdempotencyStoreException("connection refused",
				new java.io.IOException("refused"));
		MockServerWebExchange exchange = post("k-1", "{}");
		StepVerifier.create(this.fixture.handle(exchange, endpoint())).expectComplete().verify(TIMEOUT);

		assertProblem(exchange, 503, "idempotency_store_unavailable");
		assertThat(exchange.getResponse().getHeaders().getFirst("Retry-After")).isEqualTo("1");
		assertThat(this.fixture.handler.runs).hasValue(0);
	}

	@Test
	void unexpectedStoreErrorOnBeginIsAnswered503Too() {
		this.fixture.store.beginFailure = new IllegalStateException("unreadable record");
		MockServerWebExchange exchange = post("k-1", "{}");
		StepVerifier.create(this.fixture.handle(exchange, endpoint())).expectComplete().verify(TIMEOUT);

		assertProblem(exchange, 503, "idempotency_store_unavailable");
		assertThat(this.fixture.handler.runs).hasValue(0);
	}

	@Test
	void keyedRequestOverTheSizeLimitIsRefusedWith413BeforeAnythingRuns() {
		MockServerWebExchange exchange = post("k-1", "\"" + "x".repeat(1024 * 1024) + "\"");
		StepVerifier.create(this.fixture.handle(exchange, endpoint())).expectComplete().verify(TIMEOUT);

		assertProblem(exchange, 413, "idempotency_request_too_large");
		assertThat(this.fixture.handler.runs).hasValue(0);
		assertThat(this.fixture.store.calls).hasValue(0);
	}

	@Test
	void storeFailureOnEndpointThatProceedsRunsHandlerUnprotected() {
		this.fixture.store.beginFailure = new IdempotencyStoreException("connection refused",
				new java.io.IOException("refused"));
		IdempotentEndpoint proceeding = new IdempotentEndpoint("/orders", "/orders", false, Duration.ofHours(24),
				Duration.ofSeconds(30), Duration.ZERO, java.util.List.of(), Idempotent.StoreFailure.PROCEED, true);
		MockServerWebExchange exchange = post("k-1", "{\"item\":\"book\"}");
		StepVerifier.create(this.fixture.handle(exchange, proceeding)).expectComplete().verify(TIMEOUT);

		assertThat(this.fixture.handler.runs).hasValue(1);
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.CREATED);
		assertThat(body(exchange)).isEqualTo("{\"run\":1,\"echo\":{\"item\":\"book\"}}");
		assertThat(this.fixture.store.completes).hasValue(0);
	}

	@Test
	void storeFailureFromTheHandlerItselfIsNotTakenForAFailedBeginAndDoesNotRunItAgain() {
		// The handler's own store call fails (a nested operation whose store is down): that is the
		// handler's error, not a begin that failed, so the endpoint's store-failure policy (here: proceed
		// unprotected) must not run it a second time.
		IdempotencyStoreException failure = new IdempotencyStoreException("nested store down",
				new java.io.IOException("refused"));
		this.fixture.handler.failure = failure;
		IdempotentEndpoint proceeding = new IdempotentEndpoint("/orders", "/orders", false, Duration.ofHours(24),
				Duration.ofSeconds(30), Duration.ZERO, java.util.List.of(), Idempotent.StoreFailure.PROCEED, true);
		StepVerifier.create(this.fixture.handle(post("k-1", "{}"), proceeding))
			.expectErrorMatches((ex) -> ex == failure)
			.verify(TIMEOUT);

		assertThat(this.fixture.handler.runs).hasValue(1);
		assertThat(this.fixture.store.releases).hasValue(1);
	}

	private void assertKeyInvalid(String key) {
		MockServerWebExchange exchange = post(key, "{}");
		StepVerifier.create(this.fixture.handle(exchange, endpoint())).expectComplete().verify(TIMEOUT);

		assertProblem(exchange, 400, "idempotency_key_invalid");
		assertThat(this.fixture.handler.runs).hasValue(0);
		assertThat(this.fixture.store.calls).hasValue(0);
	}

	static void assertProblem(MockServerWebExchange exchange, int status, String code) {
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.valueOf(status));
		assertThat(exchange.getResponse().getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
		assertThat(exchange.getResponse().getHeaders().getFirst("Cache-Control")).isEqualTo("no-store");
		assertThat(body(exchange)).contains("\"status\":" + status)
			.contains("\"code\":\"" + code + "\"")
			.contains("\"type\":\"https://modelgate.dev/problems/" + code.replace('_', '-') + "\"");
	}

}
