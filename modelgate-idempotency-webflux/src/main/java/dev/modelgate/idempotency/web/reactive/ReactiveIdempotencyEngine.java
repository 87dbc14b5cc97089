package dev.modelgate.idempotency.web.reactive;

import java.nio.ByteBuffer;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import org.springframework.core.ResolvableType;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.codec.FormHttpMessageReader;
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

import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.IdempotencyProblem;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.ResponsePolicy;
import dev.modelgate.idempotency.web.StreamReporting;
import dev.modelgate.idempotency.web.StreamSettings;
import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.DecisionReporter;
import dev.modelgate.idempotency.core.IdempotencyKey;
import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.core.IdempotencyOutcome;
import dev.modelgate.idempotency.core.IdempotencyScope;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.InvalidIdempotencyKeyException;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * The Idempotency-Key state machine over one reactive exchange, non-blocking all the way: every store
 * call goes through an {@link AsyncIdempotencyStore}. {@link IdempotencyWebFilter} calls it for
 * {@code @Idempotent} handlers; a Spring Cloud Gateway {@code GatewayFilter} calls it for a route.
 *
 * <p>How to call it: find the endpoint's settings (an {@link IdempotentEndpoint} whose {@code route}
 * names the route in metrics and whose {@code scopeName} names the key space, for example the route
 * id), then hand over the exchange and the rest of the chain:
 *
 * <pre class="code">
 * public Mono&lt;Void&gt; filter(ServerWebExchange exchange, GatewayFilterChain chain) {
 *     return engine.handle(exchange, endpoint, chain::filter);
 * }
 * </pre>
 *
 * The engine validates the key, resolves the client identity, reads and fingerprints the body
 * (answering 413 over {@code max-request-size} before anything runs), asks the store to
 * {@code begin}, and then either answers a problem ({@code application/problem+json}), replays the
 * recorded response with the replay header, or calls {@code chain} with an exchange whose request
 * body can be read again and whose response is held back: once the body ends it is recorded (or the
 * key released, as the {@link ResponsePolicy} says) and only then committed. A request without a key
 * is passed to {@code chain} with the exchange untouched (unless the endpoint requires a key). The
 * lease is renewed while {@code chain} runs; {@code chain} runs at most once per key.
 *
 * <p>The thread that continues after a store call is the store's (for the adapted blocking stores,
 * a thread of {@link dev.modelgate.idempotency.core.BlockingIdempotencyStoreAdapter}'s pool; for a
 * reactive client, its event loop). Nothing here blocks.
 */
public class ReactiveIdempotencyEngine {

	/** The default response header that marks a replayed response (property {@code replayed-header-name}). */
	public static final String REPLAYED_HEADER = "Idempotent-Replayed";

	/**
	 * The request header with which a Server-Sent Events client resumes: the last event id it saw.
	 * Not part of the fingerprint.
	 */
	public static final String LAST_EVENT_ID = "Last-Event-ID";

	private static final Log logger = LogFactory.getLog(ReactiveIdempotencyEngine.class);

	/**
	 * Tokens come from a DRBG seeded once, here: the platform's default ({@code NativePRNG}) reads
	 * {@code /dev/urandom} now and then while generating, which is file I/O on an event-loop thread
	 * (BlockHound reports it); a DRBG generates from its state and reseeds only after billions of
	 * requests.
	 */
	private static final SecureRandom RANDOM = seededRandom();

	private static final Duration FIRST_POLL = Duration.ofMillis(20);

	private static final Duration LONGEST_POLL = Duration.ofMillis(500);

	private final AsyncIdempotencyStore store;

	private final ReactiveClientIdentityResolver identityResolver;

	private final ResponsePolicy responsePolicy;

	private final ReactiveIdempotencyProblemRenderer problemRenderer;

	private final ReplayHeaders replayHeaders;

	private final Settings settings;

	private final Scheduler timers;

	private StreamSettings streamSettings = StreamSettings.DEFAULTS;

	private DecisionReporter reporter = DecisionReporter.silent();

	private ReactiveStreams streams;

	/**
	 * An engine with no listeners, whose leases and polls are timed on Reactor's parallel scheduler.
	 * @param store the store, asked without blocking
	 * @param identityResolver names the client of a request
	 * @param responsePolicy decides which responses are recorded and which release the key
	 * @param problemRenderer writes refusals
	 * @param replayHeaders which recorded headers are replayed
	 * @param settings the global settings
	 */
	public ReactiveIdempotencyEngine(AsyncIdempotencyStore store, ReactiveClientIdentityResolver identityResolver,
			ResponsePolicy responsePolicy, ReactiveIdempotencyProblemRenderer problemRenderer,
			ReplayHeaders replayHeaders, Settings settings) {
		this.store = store;
		this.identityResolver = identityResolver;
		this.responsePolicy = responsePolicy;
		this.problemRenderer = problemRenderer;
		this.replayHeaders = replayHeaders;
		this.settings = settings;
		this.timers = Schedulers.parallel();
		this.streams = new ReactiveStreams(store, replayHeaders, settings.replayedHeaderName(), this.streamSettings,
				this.timers);
	}

	/**
	 * Listeners told of every decision (metrics, audit), called in order.
	 * @param listeners the listeners
	 */
	public void setListeners(List<? extends IdempotencyListener> listeners) {
		this.reporter = DecisionReporter.of(listeners);
	}

	/**
	 * Limits of recorded Server-Sent Events streams, and how often a duplicate attached to one polls.
	 * @param streamSettings the settings; {@link StreamSettings#DEFAULTS} unless set
	 */
	public void setStreamSettings(StreamSettings streamSettings) {
		this.streamSettings = streamSettings;
		this.streams = new ReactiveStreams(this.store, this.replayHeaders, this.settings.replayedHeaderName(),
				streamSettings, this.timers);
	}

	/** {@return the global settings} */
	public Settings getSettings() {
		return this.settings;
	}

	/**
	 * Whether a request bound for an endpoint that does not require a key can skip the engine: it has
	 * no key and no listener follows the decisions (each such request is a {@code BYPASSED} one).
	 * @param request the request
	 * @return {@code true} when calling the chain directly is what {@link #handle} would do
	 */
	public boolean canSkip(ServerHttpRequest request) {
		return !this.reporter.isFollowed() && request.getHeaders().getFirst(this.settings.headerName()) == null;
	}

	/**
	 * Applies the state machine to one exchange bound for an idempotent endpoint.
	 * @param exchange the exchange
	 * @param endpoint the endpoint's settings
	 * @param chain the rest of the chain (the handler, or the upstream call), to call with the exchange
	 * it is given; called at most once, and not at all when the request is refused or replayed
	 * @return completes when the response is done
	 */
	public Mono<Void> handle(ServerWebExchange exchange, IdempotentEndpoint endpoint,
			Function<ServerWebExchange, Mono<Void>> chain) {
		return Mono.defer(() -> {
			long started = System.nanoTime();
			ServerHttpRequest request = exchange.getRequest();
			String method = request.getMethod().name();
			IdempotencyKey key;
			try {
				List<String> values = HeaderValues.of(request.getHeaders(), this.settings.headerName());
				key = IdempotencyKey.parse((values != null) ? values : List.of(), this.settings.keyMaxLength());
			}
			catch (InvalidIdempotencyKeyException ex) {
				decide(IdempotencyOutcome.INVALID_KEY, method, endpoint, null);
				return reject(IdempotencyProblem.keyInvalid(ex.getMessage()), exchange);
			}
			if (key == null) {
				if (endpoint.required()) {
					decide(IdempotencyOutcome.MISSING_KEY, method, endpoint, null);
					return reject(IdempotencyProblem.keyMissing(this.settings.headerName()), exchange);
				}
				decide(IdempotencyOutcome.BYPASSED, method, endpoint, null);
				return chain.apply(exchange);
			}
			return this.identityResolver.resolve(exchange)
				.map(Optional::of)
				.defaultIfEmpty(Optional.empty())
				.flatMap((identity) -> identified(exchange, endpoint, chain, key, identity.orElse(null), method,
						started));
		});
	}

	private Mono<Void> identified(ServerWebExchange exchange, IdempotentEndpoint endpoint,
			Function<ServerWebExchange, Mono<Void>> chain, IdempotencyKey key, @Nullable String identity,
			String method, long started) {
		String client = identity;
		if (client == null) {
			switch (this.settings.unidentifiedClients()) {
				case REJECT -> {
					decide(IdempotencyOutcome.UNIDENTIFIED, method, endpoint, null);
					return reject(IdempotencyProblem.clientUnidentified(this.settings.clientIdentityHeader()), exchange);
				}
				case SKIP -> {
					decide(IdempotencyOutcome.UNIDENTIFIED_SKIPPED, method, endpoint, null);
					decide(IdempotencyOutcome.BYPASSED, method, endpoint, null);
					return chain.apply(exchange);
				}
				case SHARE -> client = DefaultReactiveClientIdentityResolver.ANONYMOUS;
			}
		}
		String clientIdentity = client;
		// After the identity, so that a request refused or skipped for the lack of one is never buffered.
		return KeyedBody.read(exchange.getRequest(), this.settings.maxRequestBytes(), endpoint.ignoreFields())
			.flatMap((body) -> {
				if (body.isRefused()) {
					decide(body.refusal(), method, endpoint, null);
					return reject(body.problem(), exchange);
				}
				String scope = IdempotencyScope.of(clientIdentity, method, endpoint.scopeName(), key).hash();
				Keyed keyed = new Keyed(method, endpoint, scope, started);
				if (DefaultReactiveClientIdentityResolver.ANONYMOUS.equals(clientIdentity)) {
					decide(IdempotencyOutcome.UNIDENTIFIED_SHARED, keyed);
				}
				ServerWebExchange readable = new BufferedBodyExchange(exchange,
						new BufferedBodyRequest(exchange.getRequest(), body.bytes(), exchange.getResponse()));
				return keyed(keyed, body.fingerprint(), readable, chain);
			});
	}

	private Mono<Void> keyed(Keyed keyed, String fingerprint, ServerWebExchange exchange,
			Function<ServerWebExchange, Mono<Void>> chain) {
		IdempotentEndpoint endpoint = keyed.endpoint();
		String token = newToken();
		long deadline = System.nanoTime() + endpoint.waitTimeout().toNanos();
		return begin(keyed.scope(), fingerprint, token, endpoint.leaseTtl(), deadline, FIRST_POLL, false)
			.flatMap((began) -> decided(keyed, began, token, exchange, chain))
			.onErrorResume(IdempotencyStoreException.class, (ex) -> storeUnavailable(keyed, ex, exchange, chain));
	}

	/** Asks {@code begin}, and again while a duplicate runs and the caller waits for it. */
	private Mono<Began> begin(String scope, String fingerprint, String token, Duration leaseTtl, long deadline,
			Duration pause, boolean waited) {
		return Mono.defer(() -> StoreAnswers.of(this.store.begin(scope, fingerprint, token, leaseTtl), this.timers))
			.onErrorMap((ex) -> !(ex instanceof IdempotencyStoreException),
					(ex) -> new IdempotencyStoreException("begin failed", ex))
			.flatMap((result) -> {
				long remaining = deadline - System.nanoTime();
				if (result.outcome() != BeginResult.Outcome.IN_PROGRESS || remaining <= 0) {
					return Mono.just(new Began(result, waited));
				}
				Duration next = (pause.compareTo(LONGEST_POLL) < 0) ? pause.multipliedBy(2) : LONGEST_POLL;
				return Mono.delay(Duration.ofNanos(Math.min(pause.toNanos(), remaining)), this.timers)
					.then(Mono.defer(() -> begin(scope, fingerprint, token, leaseTtl, deadline, next, true)));
			});
	}

	private Mono<Void> storeUnavailable(Keyed keyed, IdempotencyStoreException ex, ServerWebExchange exchange,
			Function<ServerWebExchange, Mono<Void>> chain) {
		decide(IdempotencyOutcome.STORE_UNAVAILABLE, keyed);
		if (keyed.endpoint().onStoreFailure() == Idempotent.StoreFailure.PROCEED) {
			logger.warn("Idempotency store unavailable for scope " + keyed.scope()
					+ "; running the handler without protection (onStoreFailure = PROCEED): " + ex.describe());
			decide(IdempotencyOutcome.BYPASSED, keyed);
			return chain.apply(exchange);
		}
		logger.warn("Idempotency store unavailable for scope " + keyed.scope() + "; answering 503: " + ex.describe());
		return reject(IdempotencyProblem.storeUnavailable(this.settings.retryAfter()), exchange);
	}

	private Mono<Void> decided(Keyed keyed, Began began, String token, ServerWebExchange exchange,
			Function<ServerWebExchange, Mono<Void>> chain) {
		if (began.waited()) {
			decide(IdempotencyOutcome.WAITED, keyed);
		}
		BeginResult result = began.result();
		return switch (result.outcome()) {
			case MISMATCH -> {
				decide(IdempotencyOutcome.MISMATCH, keyed);
				yield reject(IdempotencyProblem.keyReused(this.settings.mismatchStatus()), exchange);
			}
			case IN_PROGRESS -> inProgress(keyed, exchange);
			case COMPLETED -> {
				StoredOutcome stored = result.stored();
				yield (stored != null && stored.kind() == StoredOutcome.Kind.STREAM) ? replayStream(keyed, exchange)
						: replay(keyed, stored, exchange);
			}
			case ACQUIRED -> run(keyed, token, exchange, chain);
		};
	}

	private Mono<Void> inProgress(Keyed keyed, ServerWebExchange exchange) {
		Mono<Void> refuse = Mono.defer(() -> {
			decide(IdempotencyOutcome.IN_PROGRESS, keyed);
			return reject(IdempotencyProblem.inProgress(this.settings.retryAfter()), exchange);
		});
		if (!keyed.endpoint().attachToStream()) {
			return refuse;
		}
		return this.streams.follow(keyed.scope(), lastEventId(exchange), exchange.getResponse())
			.onErrorResume(IdempotencyStoreException.class, (ex) -> {
				logger.warn("Could not read the stream of idempotency scope " + keyed.scope() + ": " + ex.describe());
				return Mono.just(Optional.empty());
			})
			.flatMap((following) -> {
				if (following.isEmpty()) {
					return refuse;
				}
				resumed(keyed, exchange);
				decide(IdempotencyOutcome.ATTACHED, keyed);
				return following.get().doOnTerminate(() -> responded(IdempotencyListener.ResponseKind.REPLAY, keyed));
			});
	}

	private Mono<Void> run(Keyed keyed, String token, ServerWebExchange exchange,
			Function<ServerWebExchange, Mono<Void>> chain) {
		IdempotentEndpoint endpoint = keyed.endpoint();
		decide(IdempotencyOutcome.ACQUIRED, keyed);
		AsyncLease lease = new AsyncLease(this.store, this.timers, keyed.scope(), token, endpoint.leaseTtl());
		ReactiveSettlement settlement = new ReactiveSettlement(lease, this.reporter, keyed.method(), endpoint.route(),
				endpoint.ttl(), this.timers);
		StreamReporting reporting = new StreamReporting(this.reporter, keyed.method(), endpoint.route());
		CapturedResponse captured = new CapturedResponse(exchange.getResponse(), settlement, this.responsePolicy,
				this.replayHeaders, this.settings.maxResponseBytes(),
				(response, client, elements) -> this.streams.record(settlement, response, client, elements, reporting));
		ServerWebExchange running = exchange.mutate().response(captured).build();
		return chain.apply(running)
			.then(Mono.defer(captured::settleIfUnwritten))
			// A stream settles itself when it ends, and goes on when its client leaves.
			.onErrorResume((ex) -> settlement.isStreaming() ? Mono.error(ex)
					: settlement.release("the handler threw " + ex.getClass().getName()).then(Mono.error(ex)))
			.doOnCancel(() -> {
				if (!settlement.isStreaming()) {
					settlement.release("the client went away before the response was complete").subscribe();
				}
			})
			.doFinally((signal) -> responded(IdempotencyListener.ResponseKind.FIRST, keyed));
	}

	private Mono<Void> replay(Keyed keyed, @Nullable StoredOutcome outcome, ServerWebExchange exchange) {
		if (outcome == null) {
			decide(IdempotencyOutcome.RESULT_UNAVAILABLE, keyed);
			return reject(IdempotencyProblem.resultUnavailable(), exchange);
		}
		HttpResponseRecord stored;
		try {
			stored = HttpResponseRecord.decode(outcome);
		}
		catch (IdempotencyStoreException ex) {
			logger.warn("Idempotency scope " + keyed.scope()
					+ " holds a record this filter cannot replay; answering 503: " + ex.getMessage());
			decide(IdempotencyOutcome.STORE_UNAVAILABLE, keyed);
			return reject(IdempotencyProblem.storeUnavailable(this.settings.retryAfter()), exchange);
		}
		decide(IdempotencyOutcome.REPLAYED, keyed);
		ServerHttpResponse response = exchange.getResponse();
		response.setStatusCode(HttpStatusCode.valueOf(stored.status()));
		stored.headers().forEach((name, values) -> {
			if (this.replayHeaders.isReplayed(name)) {
				values.forEach((value) -> response.getHeaders().add(name, value));
			}
		});
		response.getHeaders().set(this.settings.replayedHeaderName(), "true");
		response.getHeaders().setContentLength(stored.bodyLength());
		return response
			.writeWith(Mono.fromSupplier(() -> response.bufferFactory()
				.wrap(ByteBuffer.wrap(stored.payload(), stored.bodyOffset(), stored.bodyLength()))))
			.doOnSuccess((done) -> responded(IdempotencyListener.ResponseKind.REPLAY, keyed));
	}

	private Mono<Void> replayStream(Keyed keyed, ServerWebExchange exchange) {
		return this.streams.follow(keyed.scope(), lastEventId(exchange), exchange.getResponse())
			.flatMap((following) -> {
				if (following.isEmpty()) {
					// Expired between begin and the read.
					decide(IdempotencyOutcome.RESULT_UNAVAILABLE, keyed);
					return reject(IdempotencyProblem.resultUnavailable(), exchange);
				}
				resumed(keyed, exchange);
				decide(IdempotencyOutcome.STREAM_REPLAYED, keyed);
				return following.get().doOnTerminate(() -> responded(IdempotencyListener.ResponseKind.REPLAY, keyed));
			})
			.onErrorResume(IdempotencyStoreException.class, (ex) -> {
				logger.warn("Could not read the stream of idempotency scope " + keyed.scope() + "; answering 503: "
						+ ex.describe());
				decide(IdempotencyOutcome.STORE_UNAVAILABLE, keyed);
				return reject(IdempotencyProblem.storeUnavailable(this.settings.retryAfter()), exchange);
			});
	}

	private void resumed(Keyed keyed, ServerWebExchange exchange) {
		if (lastEventId(exchange) > 0) {
			decide(IdempotencyOutcome.STREAM_RESUMED, keyed);
		}
	}

	/** The sequence after which a follower resumes: {@code Last-Event-ID} when it is one of ours, else 0. */
	private static long lastEventId(ServerWebExchange exchange) {
		String value = exchange.getRequest().getHeaders().getFirst(LAST_EVENT_ID);
		if (value == null) {
			return 0;
		}
		try {
			return Math.max(0, Long.parseLong(value.trim()));
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

	/**
	 * Answers a refusal: the problem's status, {@code Cache-Control: no-store} (a refusal is about
	 * this moment, never to be cached), {@code Retry-After} in whole seconds when the problem has one,
	 * and the body in the renderer's format.
	 */
	private Mono<Void> reject(IdempotencyProblem problem, ServerWebExchange exchange) {
		ServerHttpResponse response = exchange.getResponse();
		response.setStatusCode(HttpStatusCode.valueOf(problem.status()));
		response.getHeaders().set("Cache-Control", "no-store");
		if (problem.retryAfter() != null) {
			response.getHeaders().set("Retry-After", Long.toString(wholeSecondsAtLeastOne(problem.retryAfter())));
		}
		return this.problemRenderer.render(problem, exchange);
	}

	private static long wholeSecondsAtLeastOne(Duration duration) {
		long seconds = duration.toSeconds() + ((duration.toNanosPart() > 0) ? 1 : 0);
		return Math.max(1, seconds);
	}

	private void decide(IdempotencyOutcome outcome, Keyed keyed) {
		decide(outcome, keyed.method(), keyed.endpoint(), keyed.scope());
	}

	private void decide(@Nullable IdempotencyOutcome outcome, String method, IdempotentEndpoint endpoint,
			@Nullable String scope) {
		if (outcome != null) {
			this.reporter.decide(outcome, method, endpoint.route(), scope);
		}
	}

	private void responded(IdempotencyListener.ResponseKind kind, Keyed keyed) {
		this.reporter.responded(kind, keyed.method(), keyed.endpoint().route(),
				Duration.ofNanos(System.nanoTime() - keyed.started()));
	}

	private static SecureRandom seededRandom() {
		SecureRandom random;
		try {
			random = SecureRandom.getInstance("DRBG");
		}
		catch (NoSuchAlgorithmException ex) {
			random = new SecureRandom();
		}
		// A DRBG takes its seed on first use: let that be now, not on a request's thread.
		random.nextBytes(new byte[16]);
		return random;
	}

	/** A random 128-bit token, unique per acquisition. */
	private static String newToken() {
		byte[] bytes = new byte[16];
		RANDOM.nextBytes(bytes);
		return HexFormat.of().formatHex(bytes);
	}

	/**
	 * A keyed request once its scope is known: what every later decision is reported with.
	 *
	 * @param started {@link System#nanoTime()} when the engine took the request
	 */
	private record Keyed(String method, IdempotentEndpoint endpoint, String scope, long started) {
	}

	private record Began(BeginResult result, boolean waited) {
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

		private final Mono<MultiValueMap<String, String>> formData;

		private final Mono<MultiValueMap<String, Part>> multipartData;

		BufferedBodyExchange(ServerWebExchange delegate, ServerHttpRequest request) {
			super(delegate);
			this.request = request;
			MediaType contentType = contentType(request);
			this.formData = (contentType != null && MediaType.APPLICATION_FORM_URLENCODED.isCompatibleWith(contentType))
					? new FormHttpMessageReader().readMono(FORM_DATA, request, Map.of())
						.switchIfEmpty(Mono.fromSupplier(LinkedMultiValueMap::new))
						.cache()
					: Mono.fromSupplier(LinkedMultiValueMap::new);
			this.multipartData = (contentType != null && MediaType.MULTIPART_FORM_DATA.isCompatibleWith(contentType))
					? new MultipartHttpMessageReader(new DefaultPartHttpMessageReader())
						.readMono(MULTIPART_DATA, request, Map.of())
						.switchIfEmpty(Mono.fromSupplier(LinkedMultiValueMap::new))
						.cache()
					: Mono.fromSupplier(LinkedMultiValueMap::new);
		}

		private static @Nullable MediaType contentType(ServerHttpRequest request) {
			try {
				return request.getHeaders().getContentType();
			}
			catch (IllegalArgumentException ex) {
				return null;
			}
		}

		@Override
		public ServerHttpRequest getRequest() {
			return this.request;
		}

		@Override
		public Mono<MultiValueMap<String, String>> getFormData() {
			return this.formData;
		}

		@Override
		public Mono<MultiValueMap<String, Part>> getMultipartData() {
			return this.multipartData;
		}

	}

	/** What a keyed request gets when the {@link ReactiveClientIdentityResolver} finds no client identity. */
	public enum UnidentifiedClients {

		/** Answered 400 {@code idempotency_client_unidentified}: no client is answered with another's result. */
		REJECT,

		/**
		 * Put into the one {@link DefaultReactiveClientIdentityResolver#ANONYMOUS anonymous} key space
		 * that every unidentified client shares: one such client can be answered with another's result.
		 */
		SHARE,

		/** Run without idempotency protection, as if it had no key: a retry runs the handler again. */
		SKIP

	}

	/**
	 * Global settings of the engine (the servlet filter's, under the same properties).
	 *
	 * @param headerName the key header
	 * @param keyMaxLength the longest key accepted
	 * @param maxRequestBytes the largest body buffered for a keyed request
	 * @param maxResponseBytes the largest body stored for replay
	 * @param retryAfter the Retry-After hint on 409 and 503
	 * @param mismatchStatus the status for a key reused with another request
	 * @param replayedHeaderName the header, valued {@code true}, that marks a replayed response
	 * @param clientIdentityHeader the header that identifies clients, named in the problem answered to
	 * an unidentified one
	 * @param unidentifiedClients what a keyed request gets when its client has no identity
	 */
	public record Settings(String headerName, int keyMaxLength, long maxRequestBytes, long maxResponseBytes,
			Duration retryAfter, int mismatchStatus, String replayedHeaderName, String clientIdentityHeader,
			UnidentifiedClients unidentifiedClients) {

		/**
		 * Settings that mark replays with {@value ReactiveIdempotencyEngine#REPLAYED_HEADER}, identify
		 * clients by {@code Authorization} and refuse keyed requests of unidentified clients.
		 * @param headerName the key header
		 * @param keyMaxLength the longest key accepted
		 * @param maxRequestBytes the largest body buffered for a keyed request
		 * @param maxResponseBytes the largest body stored for replay
		 * @param retryAfter the Retry-After hint on 409 and 503
		 * @param mismatchStatus the status for a key reused with another request
		 */
		public Settings(String headerName, int keyMaxLength, long maxRequestBytes, long maxResponseBytes,
				Duration retryAfter, int mismatchStatus) {
			this(headerName, keyMaxLength, maxRequestBytes, maxResponseBytes, retryAfter, mismatchStatus,
					REPLAYED_HEADER, "Authorization", UnidentifiedClients.REJECT);
		}

	}

}
