package dev.modelgate.idempotency.web.reactive;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

import dev.modelgate.idempotency.core.AsyncIdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.web.AmbiguousClientIdentityException;
import dev.modelgate.idempotency.web.internal.HttpAction;
import dev.modelgate.idempotency.web.internal.HttpDecision;
import dev.modelgate.idempotency.web.internal.StatusLookup;
import dev.modelgate.idempotency.web.internal.StatusResource;

/** Answers lookups of the status resource for {@link ReactiveIdempotencyEngine}: nothing runs, the store answers. */
final class StatusResponder {

	private final HttpDecision decision;

	private final AsyncIdempotencyCoordinator coordinator;

	private final ReactiveClientIdentityResolver identityResolver;

	private final String headerName;

	private final ReactiveResponder responder;

	private final Supplier<ReactiveStreams> streams;

	private final Scheduler timers;

	StatusResponder(HttpDecision decision, AsyncIdempotencyCoordinator coordinator,
			ReactiveClientIdentityResolver identityResolver, String headerName, ReactiveResponder responder,
			Supplier<ReactiveStreams> streams, Scheduler timers) {
		this.decision = decision;
		this.coordinator = coordinator;
		this.identityResolver = identityResolver;
		this.headerName = headerName;
		this.responder = responder;
		this.streams = streams;
		this.timers = timers;
	}

	/**
	 * {@return whether a request is a lookup of the status resource}: answer it with {@link #lookUpStatus}
	 * @param request the request
	 */
	boolean isStatusLookup(ServerHttpRequest request) {
		StatusResource status = this.decision.statusResource();
		return status != null
				&& status.isLookup(request.getMethod().name(), request.getPath().pathWithinApplication().value());
	}

	/**
	 * Answers a lookup of the status resource ({@link #isStatusLookup} said yes) from the store:
	 * nothing runs.
	 * @param exchange the exchange
	 * @return completes when the answer is written
	 */
	Mono<Void> lookUpStatus(ServerWebExchange exchange) {
		return Mono.defer(() -> {
			StatusResource status = Objects.requireNonNull(this.decision.statusResource(), "status-path is set");
			ServerHttpRequest request = exchange.getRequest();
			StatusLookup lookup = status.start(request.getPath().pathWithinApplication().value(),
					HeaderValues.all(request.getHeaders(), this.headerName),
					String.join(",", HeaderValues.all(request.getHeaders(), "Accept")));
			if (lookup.refusal() != null) {
				return answerStatus(lookup, lookup.refusal(), exchange);
			}
			return this.identityResolver.resolve(exchange)
				.singleOptional()
				.map((resolved) -> Optional.ofNullable(lookup.identify(resolved.orElse(null))))
				.onErrorResume(AmbiguousClientIdentityException.class,
						(ex) -> Mono.just(Optional.of(lookup.identityAmbiguous(ex))))
				.flatMap((refused) -> refused.isPresent() ? Mono.just(refused.get())
						: Mono.fromFuture(lookup.lookUp(this.coordinator), true).publishOn(this.timers))
				.flatMap((action) -> answerStatus(lookup, action, exchange));
		});
	}

	private Mono<Void> answerStatus(StatusLookup lookup, HttpAction action, ServerWebExchange exchange) {
		if (action == HttpAction.ATTACH || action == HttpAction.REPLAY_STREAM) {
			return this.streams.get()
				.follow(lookup.scope(), ReactiveIdempotencyEngine.lastEventId(exchange), exchange.getResponse())
				.flatMap((following) -> following.map((stream) -> {
					lookup.followed(action);
					return stream;
				}).orElseGet(() -> answerStatus(lookup, lookup.notFollowed(action), exchange)))
				.onErrorResume(IdempotencyStoreException.class,
						(ex) -> answerStatus(lookup, lookup.storeFailed(ex), exchange));
		}
		if (action instanceof HttpAction.Pending pending) {
			return this.responder.pending(pending.retryAfter(), exchange);
		}
		if (action instanceof HttpAction.Replay replay) {
			return this.responder.replay(replay.response(), exchange);
		}
		return this.responder.reject(action, exchange);
	}

}
