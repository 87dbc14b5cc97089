package dev.modelgate.idempotency.web.reactive;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

import dev.modelgate.idempotency.core.AsyncIdempotencyCoordinator;
import dev.modelgate.idempotency.core.AsyncIdempotencyCoordinator.Attempt;
import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.AsyncLease;
import dev.modelgate.idempotency.core.Delayer;
import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.web.AmbiguousClientIdentityException;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.KeyedRequestSettings;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.ResponsePolicy;
import dev.modelgate.idempotency.web.StreamSettings;
import dev.modelgate.idempotency.web.internal.HttpAction;
import dev.modelgate.idempotency.web.internal.HttpDecision;
import dev.modelgate.idempotency.web.internal.RequestDecision;
import dev.modelgate.idempotency.web.internal.LastEventId;
import dev.modelgate.idempotency.web.internal.StreamReporting;

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
 * a thread of {@link dev.modelgate.idempotency.core.internal.BlockingIdempotencyStoreAdapter}'s pool; for a
 * reactive client, its event loop). Nothing here blocks.
 */
public class ReactiveIdempotencyEngine {

	/** Where {@code handle} leaves the adapter's callback for a stream recorded apart from its client. */
	private static final String KEEP_GENERATING_ATTRIBUTE = ReactiveIdempotencyEngine.class.getName()
			+ ".keepGenerating";

	/** A stack whose response source goes on without its client (WebFlux handlers): nothing to do. */
	private static final Consumer<ServerWebExchange> NOTHING_TO_KEEP = (exchange) -> {
	};

	private final AsyncIdempotencyStore store;

	private final AsyncIdempotencyCoordinator coordinator;

	private final HttpDecision decision;

	private final ReactiveClientIdentityResolver identityResolver;

	private final ResponsePolicy responsePolicy;

	private final ReplayHeaders replayHeaders;

	private final KeyedRequestSettings settings;

	private final Scheduler timers;

	private StreamSettings streamSettings = StreamSettings.DEFAULTS;

	private ReactiveStreams streams;

	private final ReactiveResponder responder;

	private final StatusResponder status;

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
			ReplayHeaders replayHeaders, KeyedRequestSettings settings) {
		this.store = store;
		this.identityResolver = identityResolver;
		this.responsePolicy = responsePolicy;
		this.replayHeaders = replayHeaders;
		this.settings = settings;
		this.decision = new HttpDecision(settings);
		this.timers = QuietTimers.of(Schedulers.parallel());
		this.coordinator = new AsyncIdempotencyCoordinator(store, delayer(this.timers));
		this.streams = new ReactiveStreams(store, replayHeaders, settings.replayedHeaderName(), StreamSettings.DEFAULTS,
				this.timers);
		this.responder = new ReactiveResponder(replayHeaders, settings.replayedHeaderName(), problemRenderer);
		this.status = new StatusResponder(this.decision, this.coordinator, identityResolver, settings.headerName(),
				this.responder, () -> this.streams, this.timers);
	}

	/** Timers on Reactor's scheduler, so that polls and renewals run where BlockHound watches them. */
	private static Delayer delayer(Scheduler scheduler) {
		return (task, delay) -> scheduler.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS)::dispose;
	}

	/**
	 * Listeners told of every decision (metrics, audit), called in order.
	 * @param listeners the listeners
	 */
	public void setListeners(List<? extends IdempotencyListener> listeners) {
		this.decision.setListeners(listeners);
	}

	/**
	 * Limits of recorded Server-Sent Events streams, and how often a duplicate attached to one polls.
	 * @param streamSettings the settings; {@link StreamSettings#DEFAULTS} unless set
	 */
	public void setStreamSettings(StreamSettings streamSettings) {
		this.streamSettings = streamSettings;
		this.decision.setStreamSettings(streamSettings);
		this.streams = new ReactiveStreams(this.store, this.replayHeaders, this.settings.replayedHeaderName(),
				streamSettings, this.timers);
	}

	/**
	 * Turns the status resource on: a duplicate answered 409 carries {@code Location} to the status of
	 * its key, and {@link #lookUpStatus} answers a {@code GET} there from the store.
	 * @param statusPath where it lives within the application, such as {@code /idempotency-status}, or
	 * {@code null} (the default) for none
	 */
	public void setStatusPath(@Nullable String statusPath) {
		this.decision.setStatusPath(statusPath);
	}

	/**
	 * {@return whether a request is a lookup of the status resource}: answer it with {@link #lookUpStatus}
	 * @param request the request
	 */
	public boolean isStatusLookup(ServerHttpRequest request) {
		return this.status.isStatusLookup(request);
	}

	/**
	 * Answers a lookup of the status resource ({@link #isStatusLookup} said yes) from the store:
	 * nothing runs.
	 * @param exchange the exchange
	 * @return completes when the answer is written
	 */
	public Mono<Void> lookUpStatus(ServerWebExchange exchange) {
		return this.status.lookUpStatus(exchange);
	}

	/**
	 * Whether a request bound for an endpoint that does not require a key can skip the engine: it has
	 * no key and no listener follows the decisions (each such request is a {@code BYPASSED} one).
	 * @param request the request
	 * @return {@code true} when calling the chain directly is what {@link #handle} would do
	 */
	public boolean canSkip(ServerHttpRequest request) {
		return this.decision.canSkip(request.getHeaders().getFirst(this.settings.headerName()));
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
		return handle(exchange, endpoint, chain, NOTHING_TO_KEEP);
	}

	/**
	 * Applies the state machine to one exchange bound for an idempotent endpoint, for an adapter whose
	 * stack stops a response's source when its client leaves: a recorded stream must go on to its end
	 * (the record is completed only by the stream's own end).
	 * @param exchange the exchange
	 * @param endpoint the endpoint's settings
	 * @param chain the rest of the chain, as for {@link #handle(ServerWebExchange, IdempotentEndpoint, Function)}
	 * @param keepGenerating called with the exchange given to {@code chain} when its response turns out to
	 * be a stream that is recorded apart from its client, before the client is written to: the adapter
	 * takes the stream's source out of whatever would stop it when the client leaves (the gateway, its
	 * upstream connection out of {@code NettyWriteResponseFilter}'s clean-up)
	 * @return completes when the response is done
	 */
	public Mono<Void> handle(ServerWebExchange exchange, IdempotentEndpoint endpoint,
			Function<ServerWebExchange, Mono<Void>> chain, Consumer<ServerWebExchange> keepGenerating) {
		return Mono.defer(() -> {
			if (keepGenerating != NOTHING_TO_KEEP) {
				exchange.getAttributes().put(KEEP_GENERATING_ATTRIBUTE, keepGenerating);
			}
			ServerHttpRequest request = exchange.getRequest();
			RequestDecision decision = this.decision.start(request.getMethod().name(), endpoint);
			HttpAction action = decision.key(HeaderValues.all(request.getHeaders(), this.settings.headerName()));
			if (action != null) {
				return unkeyed(action, exchange, chain);
			}
			return this.identityResolver.resolve(exchange)
				.singleOptional()
				.map((resolved) -> Optional.ofNullable(decision.identify(resolved.orElse(null))))
				.onErrorResume(AmbiguousClientIdentityException.class,
						(ex) -> Mono.just(Optional.of(decision.identityAmbiguous(ex))))
				.flatMap((unidentified) -> unidentified.isPresent() ? unkeyed(unidentified.get(), exchange, chain)
						: identified(decision, exchange, chain));
		});
	}

	/** What is decided before the body is read: a refusal, or the chain called as if there were no key. */
	private Mono<Void> unkeyed(HttpAction action, ServerWebExchange exchange,
			Function<ServerWebExchange, Mono<Void>> chain) {
		return (action instanceof HttpAction.Reject reject) ? this.responder.reject(reject.problem(), exchange)
				: chain.apply(exchange);
	}

	private Mono<Void> identified(RequestDecision decision, ServerWebExchange exchange,
			Function<ServerWebExchange, Mono<Void>> chain) {
		IdempotentEndpoint endpoint = decision.endpoint();
		return KeyedBody.read(exchange.getRequest(), this.settings.maxRequestBytes(), endpoint.ignoreFields())
			.flatMap((body) -> {
				if (body.isRefused()) {
					return unkeyed(decision.bodyRefused(body.refusal(), body.problem()), exchange, chain);
				}
				return keyed(decision, body.fingerprint(), KeyedExchange.of(exchange, body.bytes()), chain);
			});
	}

	/**
	 * Asks the store to {@code begin} and carries out the decision: the first time with the endpoint's
	 * wait for a running duplicate, again (without it) after waiting for a duplicate's stream to begin.
	 */
	private Mono<Void> keyed(RequestDecision decision, String fingerprint, ServerWebExchange exchange,
			Function<ServerWebExchange, Mono<Void>> chain) {
		IdempotentEndpoint endpoint = decision.endpoint();
		decision.fingerprinted(fingerprint);
		CompletableFuture<Attempt> answer = this.coordinator.begin(decision.scope(), fingerprint, endpoint.leaseTtl(),
				decision.waitTimeout());
		if (answer.isDone()) {
			// A store that answers at once (the memory store) goes on on the caller's thread, without a hop.
			return began(decision, answer, fingerprint, exchange, chain);
		}
		// The answered future itself is passed on (a failure too, as a value), so that only begin's
		// failure, never the handler's, is taken for the store's.
		return Mono.fromFuture(answer.handle((attempt, failure) -> answer), true)
			.publishOn(this.timers)
			.flatMap((answered) -> began(decision, answered, fingerprint, exchange, chain));
	}

	/** Carries out what the store's answer to {@code begin} (or its failure) decides. */
	private Mono<Void> began(RequestDecision decision, CompletableFuture<Attempt> answer, String fingerprint,
			ServerWebExchange exchange, Function<ServerWebExchange, Mono<Void>> chain) {
		Attempt attempt;
		try {
			attempt = answer.join();
		}
		catch (CompletionException ex) {
			if (ex.getCause() instanceof IdempotencyStoreException failure) {
				return carryOut(decision, decision.storeFailed(failure), null, fingerprint, exchange, chain);
			}
			return Mono.error((ex.getCause() != null) ? ex.getCause() : ex);
		}
		return carryOut(decision, decision.began(attempt.result(), attempt.waited()), attempt.lease(), fingerprint,
				exchange, chain);
	}

	private Mono<Void> carryOut(RequestDecision decision, HttpAction action, @Nullable AsyncLease lease,
			String fingerprint, ServerWebExchange exchange, Function<ServerWebExchange, Mono<Void>> chain) {
		if (action == HttpAction.ATTACH) {
			return attach(decision, fingerprint, exchange, chain);
		}
		if (action == HttpAction.REPLAY_STREAM) {
			return replayStream(decision, exchange);
		}
		if (action instanceof HttpAction.AskAgain again) {
			return Mono.delay(again.pause(), this.timers).then(keyed(decision, fingerprint, exchange, chain));
		}
		if (action instanceof HttpAction.Reject reject) {
			return this.responder.reject(reject, exchange);
		}
		if (action instanceof HttpAction.Replay replay) {
			return this.responder.replay(replay.response(), exchange)
				.doOnSuccess((done) -> decision.responded(IdempotencyListener.ResponseKind.REPLAY));
		}
		if (action == HttpAction.RUN) {
			return run(decision, Objects.requireNonNull(lease, "an acquired attempt holds a lease"), exchange, chain);
		}
		return chain.apply(exchange);
	}

	/**
	 * Follows the stream the running request is recording, for a duplicate counted among its followers;
	 * what the decision answers when it is not there (yet) or cannot be read.
	 */
	private Mono<Void> attach(RequestDecision decision, String fingerprint, ServerWebExchange exchange,
			Function<ServerWebExchange, Mono<Void>> chain) {
		LastEventId from = lastEventId(exchange);
		return this.streams.follow(decision.scope(), from, exchange.getResponse())
			.map((following) -> following.map((stream) -> {
				decision.attached(from.sequence());
				return stream.doOnTerminate(() -> decision.responded(IdempotencyListener.ResponseKind.REPLAY));
			}).orElseGet(() -> carryOut(decision,
					decision.notFollowed(String.join(",", HeaderValues.all(exchange.getRequest().getHeaders(), "Accept"))),
					null, fingerprint, exchange, chain)))
			.onErrorResume(IdempotencyStoreException.class,
					(ex) -> Mono.just(this.responder.reject(decision.attachFailed(ex), exchange)))
			.flatMap(Function.identity())
			.doFinally((signal) -> decision.unfollow());
	}

	private Mono<Void> run(RequestDecision decision, AsyncLease lease, ServerWebExchange exchange,
			Function<ServerWebExchange, Mono<Void>> chain) {
		ReactiveSettlement settlement = new ReactiveSettlement(decision.settlement(lease), this.timers);
		StreamReporting reporting = decision.streamReporting();
		Consumer<ServerWebExchange> keepGenerating = exchange.getAttributeOrDefault(KEEP_GENERATING_ATTRIBUTE,
				NOTHING_TO_KEEP);
		AtomicReference<ServerWebExchange> running = new AtomicReference<>();
		CapturedResponse captured = new CapturedResponse(exchange.getResponse(), settlement, this.responsePolicy,
				this.replayHeaders, this.settings.maxResponseBytes(), (response, client, elements) -> {
					keepGenerating.accept(running.get());
					return this.streams.record(settlement, response, client, elements, reporting);
				});
		running.set(KeyedExchange.withResponse(exchange, captured));
		return new DetachedRun(chain.apply(running.get()), captured, settlement,
				() -> decision.responded(IdempotencyListener.ResponseKind.FIRST));
	}

	private Mono<Void> replayStream(RequestDecision decision, ServerWebExchange exchange) {
		LastEventId from = lastEventId(exchange);
		return this.streams.follow(decision.scope(), from, exchange.getResponse())
			.flatMap((following) -> {
				HttpAction refusal = decision.streamFollowed(following.isPresent(), from.sequence());
				if (refusal instanceof HttpAction.Reject reject) {
					return this.responder.reject(reject.problem(), exchange);
				}
				return following.get()
					.doOnTerminate(() -> decision.responded(IdempotencyListener.ResponseKind.REPLAY));
			})
			.onErrorResume(IdempotencyStoreException.class,
					(ex) -> this.responder.reject(decision.streamUnreadable(ex), exchange));
	}

	/** {@return where a follower of a stream resumes: the request's {@code Last-Event-ID}} */
	static LastEventId lastEventId(ServerWebExchange exchange) {
		return LastEventId.parse(exchange.getRequest().getHeaders().getFirst(HttpDecision.LAST_EVENT_ID));
	}

}
