package dev.modelgate.idempotency.web.internal;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.AsyncLease;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyKey;
import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.core.IdempotencyOutcome;
import dev.modelgate.idempotency.core.IdempotencyScope;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.InvalidIdempotencyKeyException;
import dev.modelgate.idempotency.core.Lease;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.internal.AsyncSettlement;
import dev.modelgate.idempotency.core.internal.DecisionReporter;
import dev.modelgate.idempotency.core.internal.Settlement;
import dev.modelgate.idempotency.web.AmbiguousClientIdentityException;
import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.IdempotencyProblem;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.KeyedRequestSettings;
import dev.modelgate.idempotency.web.StreamSettings;

/**
 * The Idempotency-Key decision for HTTP, written once for every web stack: from the key header, the
 * client identity, the body's fingerprint, the endpoint's settings and the store's answer to one
 * {@link HttpAction}, with every decision reported (listeners, metrics, the transitions log) from
 * here. The servlet filter, the WebFlux filter and the gateway route filter read the request their
 * way, ask a {@link Request} at each step, and carry out what it answers.
 *
 * <p>The steps, in order: {@link Request#key key}, {@link Request#identify identity}, the body (read
 * by the adapter; {@link Request#bodyRefused} when it cannot be), {@link Request#scope scope}, the
 * store's {@code begin} ({@link Request#began}, or {@link Request#storeFailed}), then what the action
 * needs. A duplicate of a running stream: {@link HttpAction#ATTACH} (the follower cap is counted
 * here), then {@link Request#notFollowed} when there is no stream yet, which answers
 * {@link HttpAction.AskAgain} until {@link StreamSettings#headWait()} runs out; the adapter asks
 * {@code begin} again with {@link Request#waitTimeout()}. A replayed stream:
 * {@link Request#streamFollowed}. A run: {@link Request#settlement}.
 */
public final class HttpDecision {

	/**
	 * The request header with which a Server-Sent Events client resumes: the last event id it saw.
	 * Not part of the fingerprint.
	 */
	public static final String LAST_EVENT_ID = "Last-Event-ID";

	private static final Log logger = LogFactory.getLog(HttpDecision.class);

	private final KeyedRequestSettings settings;

	private volatile DecisionReporter reporter = DecisionReporter.silent();

	private volatile StreamSettings streams = StreamSettings.DEFAULTS;

	private final StreamFollowers followers = new StreamFollowers();

	/**
	 * @param settings the global settings
	 */
	public HttpDecision(KeyedRequestSettings settings) {
		this.settings = settings;
	}

	/** {@return the global settings} */
	public KeyedRequestSettings settings() {
		return this.settings;
	}

	/**
	 * Listeners told of every decision (metrics, audit), called in order.
	 * @param listeners the listeners
	 */
	public void setListeners(List<? extends IdempotencyListener> listeners) {
		this.reporter = DecisionReporter.of(listeners);
	}

	/**
	 * Limits of recorded streams: how many follow one, how long a duplicate waits for one to begin.
	 * @param streams the settings; {@link StreamSettings#DEFAULTS} unless set
	 */
	public void setStreamSettings(StreamSettings streams) {
		this.streams = streams;
	}

	/** {@return the stream settings} */
	public StreamSettings streamSettings() {
		return this.streams;
	}

	/**
	 * {@return how many duplicates follow the scope's stream on this instance now}
	 * @param scope the stream's scope
	 */
	public int followers(String scope) {
		return this.followers.count(scope);
	}

	/** {@return where decisions are reported} */
	public DecisionReporter reporter() {
		return this.reporter;
	}

	/**
	 * Whether a request bound for an endpoint that does not require a key can skip the decision: it
	 * has no key and nothing follows the decisions (each such request is a {@code BYPASSED} one).
	 * @param keyHeader the first value of the key header, or {@code null}
	 * @return {@code true} when running the handler directly is what the decision would do
	 */
	public boolean canSkip(@Nullable String keyHeader) {
		return keyHeader == null && !this.reporter.isFollowed();
	}

	/**
	 * Starts the decision for one request bound for an idempotent endpoint.
	 * @param method the HTTP method
	 * @param endpoint the endpoint's settings
	 * @return the request's decision
	 */
	public Request start(String method, IdempotentEndpoint endpoint) {
		return new Request(method, endpoint, System.nanoTime());
	}

	/**
	 * {@return the {@code Retry-After} value of a problem: whole seconds, at least one}
	 * @param retryAfter the problem's hint
	 */
	public static String retryAfterSeconds(Duration retryAfter) {
		long seconds = retryAfter.toSeconds() + ((retryAfter.toNanosPart() > 0) ? 1 : 0);
		return Long.toString(Math.max(1, seconds));
	}

	/** The decision of one request, step by step. Not thread-safe: one request, one step at a time. */
	public final class Request {

		private final String method;

		private final IdempotentEndpoint endpoint;

		private final long started;

		private @Nullable IdempotencyKey key;

		private @Nullable String identity;

		private @Nullable String scope;

		private long streamDeadline;

		private boolean askedAgain;

		/** Whether this request is counted among its stream's followers. */
		private final AtomicBoolean following = new AtomicBoolean();

		Request(String method, IdempotentEndpoint endpoint, long started) {
			this.method = method;
			this.endpoint = endpoint;
			this.started = started;
		}

		/** {@return the endpoint's settings} */
		public IdempotentEndpoint endpoint() {
			return this.endpoint;
		}

		/**
		 * Step one: the key header.
		 * @param values the key header's values, as the request carries them
		 * @return {@code null} when the request is keyed and goes on to {@link #identify}; else
		 * {@link HttpAction#PROCEED} (no key, none required) or a {@link HttpAction.Reject}
		 */
		public @Nullable HttpAction key(List<String> values) {
			try {
				this.key = IdempotencyKey.parse(values, HttpDecision.this.settings.keyMaxLength());
			}
			catch (InvalidIdempotencyKeyException ex) {
				decide(IdempotencyOutcome.INVALID_KEY);
				return new HttpAction.Reject(IdempotencyProblem.keyInvalid(ex.getMessage()));
			}
			if (this.key != null) {
				return null;
			}
			if (this.endpoint.required()) {
				decide(IdempotencyOutcome.MISSING_KEY);
				return new HttpAction.Reject(IdempotencyProblem.keyMissing(HttpDecision.this.settings.headerName()));
			}
			decide(IdempotencyOutcome.BYPASSED);
			return HttpAction.PROCEED;
		}

		/**
		 * Step two: the client identity (before the body, so that a request refused or skipped for the
		 * lack of one is never buffered).
		 * @param identity what the identity resolver found, or {@code null}
		 * @return {@code null} when the request goes on to its body; else {@link HttpAction#PROCEED}
		 * (unidentified clients are skipped) or a {@link HttpAction.Reject}
		 */
		public @Nullable HttpAction identify(@Nullable String identity) {
			if (identity != null) {
				this.identity = identity;
				return null;
			}
			switch (HttpDecision.this.settings.unidentifiedClients()) {
				case REJECT -> {
					decide(IdempotencyOutcome.UNIDENTIFIED);
					return new HttpAction.Reject(
							IdempotencyProblem.clientUnidentified(HttpDecision.this.settings.clientIdentityHeader()));
				}
				case SKIP -> {
					decide(IdempotencyOutcome.UNIDENTIFIED_SKIPPED);
					decide(IdempotencyOutcome.BYPASSED);
					return HttpAction.PROCEED;
				}
				default -> {
					this.identity = ClientIdentities.ANONYMOUS;
					return null;
				}
			}
		}

		/**
		 * The client identity header came more than once: the client is not identified, and not guessed.
		 * @param ex what the resolver found
		 * @return the 400
		 */
		public HttpAction identityAmbiguous(AmbiguousClientIdentityException ex) {
			decide(IdempotencyOutcome.UNIDENTIFIED);
			return new HttpAction.Reject(IdempotencyProblem.clientAmbiguous(ex.getIdentityHeader()));
		}

		/**
		 * The body could not be taken (too large, unreadable).
		 * @param refusal the decision to report
		 * @param problem the answer
		 * @return the refusal
		 */
		public HttpAction bodyRefused(@Nullable IdempotencyOutcome refusal, IdempotencyProblem problem) {
			if (refusal != null) {
				decide(refusal);
			}
			return new HttpAction.Reject(problem);
		}

		/**
		 * Step three, once the body is read: the hashed scope the store keeps the record under.
		 * @return the scope
		 */
		public String scope() {
			String known = this.scope;
			if (known != null) {
				return known;
			}
			if (this.key == null || this.identity == null) {
				throw new IllegalStateException("The scope is known once the key and the identity are");
			}
			String hashed = IdempotencyScope.of(this.identity, this.method, this.endpoint.scopeName(), this.key).hash();
			this.scope = hashed;
			if (ClientIdentities.ANONYMOUS.equals(this.identity)) {
				decide(IdempotencyOutcome.UNIDENTIFIED_SHARED);
			}
			return hashed;
		}

		/**
		 * {@return how long {@code begin} waits for a running duplicate to end}: the endpoint's wait
		 * the first time, none once the request {@link HttpAction.AskAgain asks again}
		 */
		public Duration waitTimeout() {
			return this.askedAgain ? Duration.ZERO : this.endpoint.waitTimeout();
		}

		/**
		 * Step four: the store's answer to {@code begin}.
		 * @param result what the store answered last
		 * @param waited whether the request waited for a running duplicate
		 * @return what to do
		 */
		public HttpAction began(BeginResult result, boolean waited) {
			if (waited) {
				decide(IdempotencyOutcome.WAITED);
			}
			KeyedRequestSettings settings = HttpDecision.this.settings;
			return switch (result.outcome()) {
				case MISMATCH -> {
					decide(IdempotencyOutcome.MISMATCH);
					yield new HttpAction.Reject(IdempotencyProblem.keyReused(settings.mismatchStatus()));
				}
				case IN_PROGRESS -> this.endpoint.attachToStream() ? join() : notAttached();
				case COMPLETED -> completed(result.stored());
				case ACQUIRED -> {
					decide(IdempotencyOutcome.ACQUIRED);
					yield HttpAction.RUN;
				}
			};
		}

		private HttpAction completed(@Nullable StoredOutcome stored) {
			if (stored != null && stored.kind() == StoredOutcome.Kind.STREAM) {
				return HttpAction.REPLAY_STREAM;
			}
			if (stored == null) {
				decide(IdempotencyOutcome.RESULT_UNAVAILABLE);
				return new HttpAction.Reject(IdempotencyProblem.resultUnavailable());
			}
			HttpResponseRecord response;
			try {
				response = HttpResponseRecord.decode(stored);
			}
			catch (IdempotencyStoreException ex) {
				logger.warn("Idempotency scope " + this.scope
						+ " holds a record this filter cannot replay; answering 503: " + ex.getMessage());
				decide(IdempotencyOutcome.STORE_UNAVAILABLE);
				return storeUnavailable();
			}
			decide(IdempotencyOutcome.REPLAYED);
			return new HttpAction.Replay(response);
		}

		/**
		 * The store could not be asked to {@code begin}.
		 * @param ex why
		 * @return {@link HttpAction#PROCEED} when the endpoint runs unprotected then, else a 503
		 */
		public HttpAction storeFailed(IdempotencyStoreException ex) {
			decide(IdempotencyOutcome.STORE_UNAVAILABLE);
			if (this.endpoint.onStoreFailure() == Idempotent.StoreFailure.PROCEED) {
				logger.warn("Idempotency store unavailable for scope " + this.scope
						+ "; running the handler without protection (onStoreFailure = PROCEED): " + ex.describe());
				decide(IdempotencyOutcome.BYPASSED);
				return HttpAction.PROCEED;
			}
			logger.warn("Idempotency store unavailable for scope " + this.scope + "; answering 503: " + ex.describe());
			return storeUnavailable();
		}

		/** A duplicate of a running stream joins its followers, unless it has as many as it may. */
		private HttpAction join() {
			int max = HttpDecision.this.streams.maxFollowers();
			if (HttpDecision.this.followers.tryJoin(scope(), max)) {
				this.following.set(true);
				return HttpAction.ATTACH;
			}
			if (logger.isDebugEnabled()) {
				logger.debug("Stream of idempotency scope " + this.scope + " has " + max
						+ " followers on this instance (stream.max-followers); the duplicate gets 409");
			}
			return notAttached();
		}

		/**
		 * {@link HttpAction#ATTACH} found no stream yet: the running request has not begun its answer
		 * (a model that thinks before its first token). A client that asks for
		 * {@code text/event-stream} waits for it, bounded by {@link StreamSettings#headWait()}, without
		 * holding on to the store: the adapter pauses, then asks {@code begin} again (the running
		 * request may have ended, released its key, or begun its stream meanwhile).
		 * @param accept the request's {@code Accept} values, joined, or {@code null}; read only here, so
		 * that no other request pays for it
		 * @return {@link HttpAction.AskAgain}, or the 409 when the duplicate is refused now
		 */
		public HttpAction notFollowed(@Nullable String accept) {
			unfollow();
			Duration pause = headWait(accept);
			if (pause == null) {
				return notAttached();
			}
			this.askedAgain = true;
			return new HttpAction.AskAgain(pause);
		}

		private @Nullable Duration headWait(@Nullable String accept) {
			if (accept == null || !accept.toLowerCase(Locale.ROOT).contains("text/event-stream")) {
				return null;
			}
			StreamSettings streams = HttpDecision.this.streams;
			long now = System.nanoTime();
			if (this.streamDeadline == 0) {
				this.streamDeadline = now + streams.headWait().toNanos();
				if (!streams.headWait().isZero() && !streams.headWait().isNegative()) {
					decide(IdempotencyOutcome.WAITED);
				}
			}
			long remaining = this.streamDeadline - now;
			if (remaining <= 0) {
				return null;
			}
			return Duration.ofNanos(Math.min(streams.pollInterval().toNanos(), remaining));
		}

		/**
		 * A duplicate of a running request found no stream to attach to (yet).
		 * @return the 409
		 */
		public HttpAction notAttached() {
			decide(IdempotencyOutcome.IN_PROGRESS);
			return new HttpAction.Reject(IdempotencyProblem.inProgress(HttpDecision.this.settings.retryAfter()));
		}

		/**
		 * The running request's stream could not be read for a duplicate: it is refused as if there were none.
		 * @param ex why
		 * @return the 409
		 */
		public HttpAction attachFailed(IdempotencyStoreException ex) {
			unfollow();
			logger.warn("Could not read the stream of idempotency scope " + this.scope + ": " + ex.describe());
			return notAttached();
		}

		/**
		 * A duplicate that followed a stream is done with it (or its client left): it no longer counts
		 * among the stream's followers. Safe to call more than once.
		 */
		public void unfollow() {
			if (this.following.compareAndSet(true, false)) {
				HttpDecision.this.followers.leave(scope());
			}
		}

		/**
		 * A duplicate follows the stream it attached to ({@link HttpAction#ATTACH}).
		 * @param lastEventId where it resumes
		 */
		public void attached(long lastEventId) {
			resumed(lastEventId);
			decide(IdempotencyOutcome.ATTACHED);
		}

		/**
		 * What became of {@link HttpAction#REPLAY_STREAM}.
		 * @param found whether the stream was there to follow
		 * @param lastEventId where the follower resumes
		 * @return {@code null} when it is being replayed, else the 410 (the record expired since {@code begin})
		 */
		public @Nullable HttpAction streamFollowed(boolean found, long lastEventId) {
			if (!found) {
				decide(IdempotencyOutcome.RESULT_UNAVAILABLE);
				return new HttpAction.Reject(IdempotencyProblem.resultUnavailable());
			}
			resumed(lastEventId);
			decide(IdempotencyOutcome.STREAM_REPLAYED);
			return null;
		}

		/**
		 * A recorded stream could not be read for {@link HttpAction#REPLAY_STREAM}.
		 * @param ex why
		 * @return the 503
		 */
		public HttpAction streamUnreadable(IdempotencyStoreException ex) {
			logger.warn("Could not read the stream of idempotency scope " + this.scope + "; answering 503: "
					+ ex.describe());
			decide(IdempotencyOutcome.STORE_UNAVAILABLE);
			return storeUnavailable();
		}

		/**
		 * {@return how a run under {@code lease} ends: recorded, released or abandoned}
		 * @param lease the acquired lease
		 */
		public Settlement settlement(Lease lease) {
			return new Settlement(lease, HttpDecision.this.reporter, this.method, this.endpoint.route(),
					this.endpoint.ttl());
		}

		/**
		 * {@return how an asynchronous run under {@code lease} ends}
		 * @param lease the acquired lease
		 */
		public AsyncSettlement settlement(AsyncLease lease) {
			return new AsyncSettlement(lease, HttpDecision.this.reporter, this.method, this.endpoint.route(),
					this.endpoint.ttl());
		}

		/** {@return what a recorded stream of this run reports} */
		public StreamReporting streamReporting() {
			return new StreamReporting(HttpDecision.this.reporter, this.method, this.endpoint.route());
		}

		/**
		 * The response is done: reports how long the request took.
		 * @param kind a first response or a replay
		 */
		public void responded(IdempotencyListener.ResponseKind kind) {
			HttpDecision.this.reporter.responded(kind, this.method, this.endpoint.route(),
					Duration.ofNanos(System.nanoTime() - this.started));
		}

		private void resumed(long lastEventId) {
			if (lastEventId > 0) {
				decide(IdempotencyOutcome.STREAM_RESUMED);
			}
		}

		private HttpAction storeUnavailable() {
			return new HttpAction.Reject(IdempotencyProblem.storeUnavailable(HttpDecision.this.settings.retryAfter()));
		}

		private void decide(IdempotencyOutcome outcome) {
			HttpDecision.this.reporter.decide(outcome, this.method, this.endpoint.route(), this.scope);
		}

	}

}
