package dev.modelgate.idempotency.gateway;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamSlice;
import dev.modelgate.idempotency.core.internal.BlockingIdempotencyStoreAdapter;
import dev.modelgate.idempotency.web.EndpointDefaults;
import dev.modelgate.idempotency.web.KeyedRequestSettings;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.StatusResponsePolicy;
import dev.modelgate.idempotency.web.reactive.DefaultReactiveClientIdentityResolver;
import dev.modelgate.idempotency.web.reactive.ReactiveIdempotencyEngine;
import dev.modelgate.idempotency.web.reactive.ReactiveProblemDetailRenderer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The route filter over mock exchanges and a fake rest of the chain standing for the upstream call:
 * no gateway, no server, no upstream.
 */
class IdempotencyGatewayFilterTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private final MovableClock clock = new MovableClock();

	private final CountingStore store = new CountingStore(new InMemoryIdempotencyStore(this.clock));

	private final ReactiveIdempotencyEngine engine = new ReactiveIdempotencyEngine(
			BlockingIdempotencyStoreAdapter.create(this.store, Duration.ofSeconds(2), 2, 16),
			new DefaultReactiveClientIdentityResolver("Authorization"),
			new StatusResponsePolicy(new HashSet<>(StatusResponsePolicy.DEFAULT_RELEASE_STATUSES), false),
			new ReactiveProblemDetailRenderer(ServerCodecConfigurer.create().getWriters()), new ReplayHeaders(List.of()),
			new KeyedRequestSettings("Idempotency-Key", 255, 1024 * 1024, 1024 * 1024, Duration.ofSeconds(1), 422));

	private final IdempotencyGatewayFilterFactory factory = new IdempotencyGatewayFilterFactory(this.engine,
			new EndpointDefaults(Duration.ofHours(24), Duration.ofSeconds(30), Duration.ofSeconds(10),
					Idempotent.InProgress.REJECT));

	private final Upstream upstream = new Upstream();

	@Test
	void replaysCompletedKeyWithoutCallingUpstreamAgain() {
		GatewayFilter filter = filter("chat", (config) -> {
		});
		MockServerWebExchange first = request("k-1");
		StepVerifier.create(filter.filter(first, this.upstream)).expectComplete().verify(TIMEOUT);
		MockServerWebExchange retry = request("k-1");
		StepVerifier.create(filter.filter(retry, this.upstream)).expectComplete().verify(TIMEOUT);

		assertThat(this.upstream.calls).hasValue(1);
		assertThat(first.getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(body(first)).isEqualTo("{\"call\":1}");
		assertThat(retry.getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(retry.getResponse().getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(retry.getResponse().getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_JSON);
		assertThat(body(retry)).isEqualTo("{\"call\":1}");
	}

	@Test
	void aRetryAfterTheTtlIsRefusedWith410UnderTheGlobalSpentKeyRetention() {
		IdempotencyGatewayFilterFactory spentKeys = new IdempotencyGatewayFilterFactory(this.engine,
				new EndpointDefaults(Duration.ofHours(24), Duration.ofSeconds(30), Duration.ofSeconds(10),
						Idempotent.InProgress.REJECT, Duration.ofDays(7)));
		IdempotencyGatewayFilterFactory.Config config = new IdempotencyGatewayFilterFactory.Config();
		config.setRouteId("chat");
		GatewayFilter filter = spentKeys.apply(config);
		StepVerifier.create(filter.filter(request("k-1"), this.upstream)).expectComplete().verify(TIMEOUT);
		this.clock.advance(Duration.ofHours(25));

		MockServerWebExchange late = request("k-1");
		StepVerifier.create(filter.filter(late, this.upstream)).expectComplete().verify(TIMEOUT);
		MockServerWebExchange otherBody = MockServerWebExchange.from(MockServerHttpRequest.post("/v1/chat/completions")
			.header("Authorization", "Bearer sk-1")
			.header("Idempotency-Key", "k-1")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"model\":\"other\"}"));
		StepVerifier.create(filter.filter(otherBody, this.upstream)).expectComplete().verify(TIMEOUT);

		assertThat(this.upstream.calls).hasValue(1);
		assertThat(late.getResponse().getStatusCode()).isEqualTo(HttpStatus.GONE);
		assertThat(body(late)).contains("\"code\":\"idempotency_key_spent\"").contains("\"original_status\":200");
		assertThat(otherBody.getResponse().getStatusCode().value()).isEqualTo(422);
	}

	@Test
	void duplicateWhileUpstreamRunsIsRefusedWith409AndRetryAfter() throws Exception {
		Sinks.Empty<Void> upstreamAnswers = Sinks.empty();
		this.upstream.gate = upstreamAnswers.asMono();
		GatewayFilter filter = filter("chat", (config) -> {
		});
		MockServerWebExchange first = request("k-1");
		CompletableFuture<Void> firstDone = filter.filter(first, this.upstream).toFuture();

		MockServerWebExchange duplicate = request("k-1");
		StepVerifier.create(filter.filter(duplicate, this.upstream)).expectComplete().verify(TIMEOUT);

		assertThat(duplicate.getResponse().getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
		assertThat(duplicate.getResponse().getHeaders().getFirst("Retry-After")).isEqualTo("1");
		assertThat(duplicate.getResponse().getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
		assertThat(body(duplicate)).contains("\"code\":\"idempotency_request_in_progress\"");
		// No status path: no status resource to point to.
		assertThat(duplicate.getResponse().getHeaders().getLocation()).isNull();
		assertThat(firstDone).isNotDone();

		upstreamAnswers.tryEmitEmpty();
		firstDone.get(5, TimeUnit.SECONDS);
		assertThat(this.upstream.calls).hasValue(1);
		assertThat(body(first)).isEqualTo("{\"call\":1}");
	}

	/**
	 * Section 14 on a route: the duplicate's 409 points to the status of its key; a route filter asked
	 * for that status answers 202 while the upstream runs, the upstream's recorded answer once it
	 * completed, and the spent-key problem after ttl, without calling the upstream; another client
	 * gets the 404 of a key never used.
	 */
	@Test
	void statusOfARouteKeyIs202ThenTheRecordedAnswerThenTheSpentProblem() throws Exception {
		this.engine.setStatusPath("/idempotency-status");
		IdempotencyGatewayFilterFactory spentKeys = new IdempotencyGatewayFilterFactory(this.engine,
				new EndpointDefaults(Duration.ofHours(24), Duration.ofSeconds(30), Duration.ofSeconds(10),
						Idempotent.InProgress.REJECT, Duration.ofDays(7)));
		IdempotencyGatewayFilterFactory.Config chatConfig = new IdempotencyGatewayFilterFactory.Config();
		chatConfig.setRouteId("chat");
		GatewayFilter chat = spentKeys.apply(chatConfig);
		IdempotencyGatewayFilterFactory.Config statusConfig = new IdempotencyGatewayFilterFactory.Config();
		statusConfig.setRouteId("status");
		GatewayFilter status = spentKeys.apply(statusConfig);
		Sinks.Empty<Void> upstreamAnswers = Sinks.empty();
		this.upstream.gate = upstreamAnswers.asMono();
		MockServerWebExchange first = request("k-1");
		CompletableFuture<Void> firstDone = chat.filter(first, this.upstream).toFuture();
		MockServerWebExchange duplicate = request("k-1");
		StepVerifier.create(chat.filter(duplicate, this.upstream)).expectComplete().verify(TIMEOUT);
		String location = duplicate.getResponse().getHeaders().getFirst("Location");
		assertThat(duplicate.getResponse().getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
		assertThat(location).matches("/idempotency-status/[A-Za-z0-9_-]+");

		MockServerWebExchange running = lookUp(status, location, "k-1", "Bearer sk-1");
		MockServerWebExchange otherClient = lookUp(status, location, "k-1", "Bearer sk-2");
		MockServerWebExchange unknownKey = lookUp(status, location, "k-2", "Bearer sk-1");
		assertThat(running.getResponse().getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
		assertThat(running.getResponse().getHeaders().getFirst("Retry-After")).isEqualTo("1");
		assertThat(otherClient.getResponse().getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
		assertThat(body(otherClient)).contains("\"code\":\"idempotency_key_unknown\"").isEqualTo(body(unknownKey));
		assertThat(firstDone).isNotDone();

		upstreamAnswers.tryEmitEmpty();
		firstDone.get(5, TimeUnit.SECONDS);
		MockServerWebExchange completed = lookUp(status, location, "k-1", "Bearer sk-1");
		assertThat(completed.getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(completed.getResponse().getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(body(completed)).isEqualTo(body(first)).isEqualTo("{\"call\":1}");

		this.clock.advance(Duration.ofHours(25));
		MockServerWebExchange spent = lookUp(status, location, "k-1", "Bearer sk-1");
		assertThat(spent.getResponse().getStatusCode()).isEqualTo(HttpStatus.GONE);
		assertThat(body(spent)).contains("\"code\":\"idempotency_key_spent\"");
		assertThat(this.upstream.calls).hasValue(1);
	}

	private MockServerWebExchange lookUp(GatewayFilter status, String location, String key, String client) {
		MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get(location)
			.header("Authorization", client)
			.header("Idempotency-Key", key));
		StepVerifier.create(status.filter(exchange, this.upstream)).expectComplete().verify(TIMEOUT);
		return exchange;
	}

	@Test
	void requestWithoutKeyGoesToUpstreamUntouchedWithoutStoreCall() {
		GatewayFilter filter = filter("chat", (config) -> {
		});
		MockServerWebExchange exchange = request(null);
		StepVerifier.create(filter.filter(exchange, this.upstream)).expectComplete().verify(TIMEOUT);

		assertThat(this.upstream.calls).hasValue(1);
		assertThat(this.upstream.lastExchange).isSameAs(exchange);
		assertThat(this.store.calls).hasValue(0);
	}

	@Test
	void requestWithoutKeyOnRouteThatRequiresOneIsRefusedWith400() {
		GatewayFilter filter = filter("chat", (config) -> config.setRequired(true));
		MockServerWebExchange exchange = request(null);
		StepVerifier.create(filter.filter(exchange, this.upstream)).expectComplete().verify(TIMEOUT);

		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
		assertThat(body(exchange)).contains("\"code\":\"idempotency_key_missing\"");
		assertThat(this.upstream.calls).hasValue(0);
	}

	@Test
	void eachRouteIsAKeySpaceOfItsOwnUnlessTheyNameOneScope() {
		GatewayFilter chat = filter("chat", (config) -> {
		});
		GatewayFilter completions = filter("completions", (config) -> {
		});
		GatewayFilter sharedChat = filter("chat-v2", (config) -> config.setScope("chat"));
		StepVerifier.create(chat.filter(request("k-1"), this.upstream)).expectComplete().verify(TIMEOUT);
		StepVerifier.create(completions.filter(request("k-1"), this.upstream)).expectComplete().verify(TIMEOUT);
		MockServerWebExchange shared = request("k-1");
		StepVerifier.create(sharedChat.filter(shared, this.upstream)).expectComplete().verify(TIMEOUT);

		assertThat(this.upstream.calls).hasValue(2);
		assertThat(shared.getResponse().getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(body(shared)).isEqualTo("{\"call\":1}");
	}

	@Test
	void upstreamServerErrorReleasesTheKeySoARetryCallsItAgain() {
		GatewayFilter filter = filter("chat", (config) -> {
		});
		this.upstream.status = HttpStatus.BAD_GATEWAY;
		StepVerifier.create(filter.filter(request("k-1"), this.upstream)).expectComplete().verify(TIMEOUT);
		this.upstream.status = HttpStatus.OK;
		MockServerWebExchange retry = request("k-1");
		StepVerifier.create(filter.filter(retry, this.upstream)).expectComplete().verify(TIMEOUT);

		assertThat(this.upstream.calls).hasValue(2);
		assertThat(retry.getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(body(retry)).isEqualTo("{\"call\":2}");
	}

	@Test
	void recordedStreamIsTakenOutOfTheUpstreamConnectionCleanUp() {
		GatewayFilter filter = filter("chat", (config) -> {
		});
		this.upstream.eventStream = true;
		MockServerWebExchange streamed = request("k-1");
		streamed.getAttributes().put(ServerWebExchangeUtils.CLIENT_RESPONSE_CONN_ATTR, "connection");
		StepVerifier.create(filter.filter(streamed, this.upstream)).expectComplete().verify(TIMEOUT);

		this.upstream.eventStream = false;
		MockServerWebExchange answered = request("k-2");
		answered.getAttributes().put(ServerWebExchangeUtils.CLIENT_RESPONSE_CONN_ATTR, "connection");
		StepVerifier.create(filter.filter(answered, this.upstream)).expectComplete().verify(TIMEOUT);

		assertThat(body(streamed)).startsWith("id: 1.").endsWith("\ndata: {\"call\":1}\n\n");
		assertThat(streamed.getAttributes()).doesNotContainKey(ServerWebExchangeUtils.CLIENT_RESPONSE_CONN_ATTR);
		assertThat(answered.getAttributes()).containsKey(ServerWebExchangeUtils.CLIENT_RESPONSE_CONN_ATTR);
	}

	private GatewayFilter filter(String routeId, Consumer<IdempotencyGatewayFilterFactory.Config> customizer) {
		IdempotencyGatewayFilterFactory.Config config = new IdempotencyGatewayFilterFactory.Config();
		config.setRouteId(routeId);
		customizer.accept(config);
		return this.factory.apply(config);
	}

	private static MockServerWebExchange request(@Nullable String key) {
		MockServerHttpRequest.BodyBuilder request = MockServerHttpRequest.post("/v1/chat/completions")
			.header("Authorization", "Bearer sk-1")
			.contentType(MediaType.APPLICATION_JSON);
		if (key != null) {
			request.header("Idempotency-Key", key);
		}
		return MockServerWebExchange.from(request.body("{\"model\":\"m\"}"));
	}

	private static String body(MockServerWebExchange exchange) {
		return exchange.getResponse().getBodyAsString().block(TIMEOUT);
	}

	/**
	 * The rest of the route: counts its calls, waits for {@link #gate}, then answers {@link #status},
	 * with JSON or one Server-Sent Event.
	 */
	private static final class Upstream implements GatewayFilterChain {

		final AtomicInteger calls = new AtomicInteger();

		volatile Mono<Void> gate = Mono.empty();

		volatile HttpStatus status = HttpStatus.OK;

		volatile @Nullable ServerWebExchange lastExchange;

		volatile boolean eventStream;

		@Override
		public Mono<Void> filter(ServerWebExchange exchange) {
			return Mono.defer(() -> {
				int call = this.calls.incrementAndGet();
				this.lastExchange = exchange;
				ServerHttpResponse response = exchange.getResponse();
				return this.gate.then(Mono.defer(() -> {
					response.setStatusCode(this.status);
					String json = "{\"call\":" + call + "}";
					if (this.eventStream) {
						response.getHeaders().setContentType(MediaType.TEXT_EVENT_STREAM);
						byte[] event = ("data: " + json + "\n\n").getBytes(StandardCharsets.UTF_8);
						return response.writeAndFlushWith(
								Mono.just(Mono.fromSupplier(() -> response.bufferFactory().wrap(event))));
					}
					response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
					byte[] body = json.getBytes(StandardCharsets.UTF_8);
					return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
				}));
			});
		}

	}

	/** A clock the test moves forward, for the memory store's expiry. */
	private static final class MovableClock extends Clock {

		private volatile Instant now = Instant.now();

		void advance(Duration duration) {
			this.now = this.now.plus(duration);
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return this.now;
		}

	}

	/** Counts every call of the memory store (streams included), which never waits (so the adapter calls it directly). */
	private static final class CountingStore implements IdempotencyStore {

		final AtomicInteger calls = new AtomicInteger();

		private final IdempotencyStore delegate;

		CountingStore(IdempotencyStore delegate) {
			this.delegate = delegate;
		}

		@Override
		public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			this.calls.incrementAndGet();
			return this.delegate.begin(scope, fingerprint, token, leaseTtl);
		}

		@Override
		public boolean renew(String scope, String token, Duration leaseTtl) {
			this.calls.incrementAndGet();
			return this.delegate.renew(scope, token, leaseTtl);
		}

		@Override
		public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
			this.calls.incrementAndGet();
			return this.delegate.complete(scope, token, outcome, ttl);
		}

		@Override
		public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl,
				SpentMarker marker) {
			this.calls.incrementAndGet();
			return this.delegate.complete(scope, token, outcome, ttl, marker);
		}

		@Override
		public boolean release(String scope, String token) {
			this.calls.incrementAndGet();
			return this.delegate.release(scope, token);
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
