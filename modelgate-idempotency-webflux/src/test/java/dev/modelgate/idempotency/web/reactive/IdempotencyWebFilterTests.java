package dev.modelgate.idempotency.web.reactive;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.pattern.PathPatternParser;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.web.EndpointDefaults;
import dev.modelgate.idempotency.web.IdempotentEndpoint;

import static dev.modelgate.idempotency.web.reactive.EngineFixture.body;
import static dev.modelgate.idempotency.web.reactive.EngineFixture.endpoint;
import static dev.modelgate.idempotency.web.reactive.EngineFixture.post;
import static dev.modelgate.idempotency.web.reactive.ReactiveIdempotencyEngineTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The filter in front of the engine, over an endpoint made idempotent by a configured route (as
 * {@code modelgate.idempotency.routes} does), so that no handler mappings are needed.
 */
class IdempotencyWebFilterTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private final EngineFixture fixture = new EngineFixture();

	private final AtomicInteger originalExchangesSeen = new AtomicInteger();

	@Test
	void requestWithoutKeyPassesUntouchedWithoutStoreCall() {
		IdempotencyWebFilter filter = filter(endpoint());
		MockServerWebExchange exchange = post(null, "{\"item\":\"book\"}");
		StepVerifier.create(filter.filter(exchange, chain(exchange))).expectComplete().verify(TIMEOUT);

		assertThat(this.fixture.handler.runs).hasValue(1);
		assertThat(this.originalExchangesSeen).hasValue(1);
		assertThat(this.fixture.store.calls).hasValue(0);
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.CREATED);
		assertThat(body(exchange)).isEqualTo("{\"run\":1,\"echo\":{\"item\":\"book\"}}");
	}

	@Test
	void requestToAnotherRoutePassesUntouchedEvenWithKey() {
		IdempotencyWebFilter filter = filter(endpoint());
		for (int i = 0; i < 2; i++) {
			MockServerWebExchange exchange = MockServerWebExchange
				.from(MockServerHttpRequest.post("/other").header(EngineFixture.KEY_HEADER, "k-1").body("{}"));
			StepVerifier.create(filter.filter(exchange, chain(exchange))).expectComplete().verify(TIMEOUT);
		}

		assertThat(this.originalExchangesSeen).hasValue(2);
		assertThat(this.fixture.store.calls).hasValue(0);
	}

	@Test
	void requestWithoutKeyToRequiredRouteIsRefused() {
		IdempotencyWebFilter filter = filter(endpoint(true, Duration.ZERO));
		MockServerWebExchange exchange = post(null, "{}");
		StepVerifier.create(filter.filter(exchange, chain(exchange))).expectComplete().verify(TIMEOUT);

		assertProblem(exchange, 400, "idempotency_key_missing");
		assertThat(this.fixture.handler.runs).hasValue(0);
		assertThat(this.fixture.store.calls).hasValue(0);
	}

	@Test
	void routesSetAfterStartUpStillRequireTheirKey() {
		ReactiveIdempotentHandlerResolver resolver = resolver();
		resolver.afterSingletonsInstantiated();
		assertThat(resolver.hasKeyRequiredHandlers()).isFalse();
		resolver.setRoutes(List.of(new ReactiveIdempotentHandlerResolver.Route("POST",
				PathPatternParser.defaultInstance.parse("/orders"), endpoint(true, Duration.ZERO))));
		IdempotencyWebFilter filter = new IdempotencyWebFilter(resolver, this.fixture.engine);
		MockServerWebExchange exchange = post(null, "{}");
		StepVerifier.create(filter.filter(exchange, chain(exchange))).expectComplete().verify(TIMEOUT);

		assertThat(resolver.hasKeyRequiredHandlers()).isTrue();
		assertProblem(exchange, 400, "idempotency_key_missing");
		assertThat(this.fixture.handler.runs).hasValue(0);
	}

	@Test
	void keyedRequestIsRunOnceAndReplayedThroughTheFilter() {
		IdempotencyWebFilter filter = filter(endpoint());
		MockServerWebExchange first = post("k-1", "{}");
		StepVerifier.create(filter.filter(first, chain(first))).expectComplete().verify(TIMEOUT);
		MockServerWebExchange retry = post("k-1", "{}");
		StepVerifier.create(filter.filter(retry, chain(retry))).expectComplete().verify(TIMEOUT);

		assertThat(this.fixture.handler.runs).hasValue(1);
		assertThat(retry.getResponse().getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(body(retry)).isEqualTo(body(first));
	}

	private static ReactiveIdempotentHandlerResolver resolver() {
		return new ReactiveIdempotentHandlerResolver(List::of, new EndpointDefaults(Duration.ofHours(24),
				Duration.ofSeconds(30), Duration.ZERO, Idempotent.InProgress.REJECT));
	}

	private IdempotencyWebFilter filter(IdempotentEndpoint endpoint) {
		ReactiveIdempotentHandlerResolver resolver = resolver();
		resolver.setRoutes(List.of(new ReactiveIdempotentHandlerResolver.Route("POST",
				PathPatternParser.defaultInstance.parse("/orders"), endpoint)));
		resolver.afterSingletonsInstantiated();
		return new IdempotencyWebFilter(resolver, this.fixture.engine);
	}

	/** The rest of the chain: the handler, counting the times it was handed the client's own exchange. */
	private WebFilterChain chain(ServerWebExchange original) {
		return (exchange) -> {
			if (exchange == original) {
				this.originalExchangesSeen.incrementAndGet();
			}
			return this.fixture.handler.apply(exchange);
		};
	}

}
