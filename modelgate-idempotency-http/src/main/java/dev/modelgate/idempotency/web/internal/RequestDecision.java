package dev.modelgate.idempotency.web.internal;

import java.time.Duration;
import java.util.List;
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
import dev.modelgate.idempotency.core.internal.BlockingSettlement;
import dev.modelgate.idempotency.web.AmbiguousClientIdentityException;
import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.IdempotencyProblem;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.KeyedRequestSettings;
import dev.modelgate.idempotency.web.StreamSettings;

/**
 * The decision of one request bound for an idempotent endpoint, step by step, from {@link HttpDecision#start}.
 * Not thread-safe: one request, one step at a time.
 */
public final class RequestDecision {

	/** Decisions are logged under the HTTP decision's name. */
	private static final Log logger = LogFactory.getLog(HttpDecision.class);

	private final HttpDecision http;

	private final String method;

	private final IdempotentEndpoint endpoint;

	private final long started;

	private @Nullable IdempotencyKey key;

	private @Nullable String identity;

	private @Nullable String scope;

	private @Nullable String fingerprint;

	private final StreamHeadWait headWait = new StreamHeadWait();

	private boolean askedAgain;

	/** Whether this request is counted among its stream's followers. */
	private final AtomicBoolean following = new AtomicBoolean();

	RequestDecision(HttpDecision http, String method, IdempotentEndpoint endpoint, long started) {
		this.http = http;
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
			this.key = IdempotencyKey.parse(values, this.http.settings().keyMaxLength());
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
			return new HttpAction.Reject(IdempotencyProblem.keyMissing(this.http.settings().headerName()));
		}
		decide(IdempotencyOutcome.BYPASSED);
		return HttpAction.PROCEED;
	}

	/**
	 * Step two: the client identity (before the body, which is then never buffered for nothing).
	 * @param identity what the identity resolver found, or {@code null}
	 * @return {@code null} when the request goes on to its body; else {@link HttpAction#PROCEED}
	 * (unidentified clients are skipped) or a {@link HttpAction.Reject}
	 */
	public @Nullable HttpAction identify(@Nullable String identity) {
		if (identity != null) {
			this.identity = identity;
			return null;
		}
		switch (this.http.settings().unidentifiedClients()) {
			case REJECT -> {
				decide(IdempotencyOutcome.UNIDENTIFIED);
				return new HttpAction.Reject(
						IdempotencyProblem.clientUnidentified(this.http.settings().clientIdentityHeader()));
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
	 * The body's fingerprint, once read: what the {@code Location} of a 409 names, with the scope.
	 * @param fingerprint the request's fingerprint
	 */
	public void fingerprinted(String fingerprint) {
		this.fingerprint = fingerprint;
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
		KeyedRequestSettings settings = this.http.settings();
		return switch (result.outcome()) {
			case MISMATCH -> {
				decide(IdempotencyOutcome.MISMATCH);
				yield new HttpAction.Reject(IdempotencyProblem.keyReused(settings.mismatchStatus()));
			}
			case IN_PROGRESS -> this.endpoint.attachToStream() ? join() : notAttached();
			case COMPLETED -> completed(result.stored());
			case SPENT -> {
				decide(IdempotencyOutcome.SPENT);
				yield new HttpAction.Reject(IdempotencyProblem.keySpent(result.spent()));
			}
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
			return unavailable("Idempotency scope " + this.scope + " holds a record this filter cannot replay", ex);
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
		if (this.endpoint.onStoreFailure() == Idempotent.StoreFailure.PROCEED) {
			decide(IdempotencyOutcome.STORE_UNAVAILABLE);
			logger.warn("Idempotency store unavailable for scope " + this.scope
					+ "; running the handler without protection (onStoreFailure = PROCEED): " + ex.describe());
			decide(IdempotencyOutcome.BYPASSED);
			return HttpAction.PROCEED;
		}
		return unavailable("Idempotency store unavailable for scope " + this.scope, ex);
	}

	/** A duplicate of a running stream joins its followers, unless it has as many as it may. */
	private HttpAction join() {
		int max = this.http.streamSettings().maxFollowers();
		if (this.http.followerCounts().tryJoin(scope(), max)) {
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
	 * {@link HttpAction#ATTACH} found no stream yet (a model that thinks before its first token): a
	 * client that asks for {@code text/event-stream} waits, up to {@link StreamSettings#headWait()},
	 * asking {@code begin} again after each pause; any other is refused.
	 * @param accept the request's {@code Accept} values, joined, or {@code null}
	 * @return {@link HttpAction.AskAgain}, or the 409
	 */
	public HttpAction notFollowed(@Nullable String accept) {
		unfollow();
		Duration pause = this.headWait.nextPause(accept, this.http.streamSettings(),
				() -> decide(IdempotencyOutcome.WAITED));
		if (pause == null) {
			return notAttached();
		}
		this.askedAgain = true;
		return new HttpAction.AskAgain(pause);
	}

	/**
	 * {@return the 409 for a duplicate of a running request}, with the {@code Location} of its status
	 * when the status resource is on
	 */
	public HttpAction notAttached() {
		decide(IdempotencyOutcome.IN_PROGRESS);
		StatusResource status = this.http.statusResource();
		String location = (status != null && this.fingerprint != null)
				? status.location(this.method, this.endpoint.scopeName(), this.fingerprint) : null;
		return new HttpAction.Reject(IdempotencyProblem.inProgress(this.http.settings().retryAfter()), location);
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
			this.http.followerCounts().leave(scope());
		}
	}

	/** @param lastEventId where a duplicate that follows its running request's stream resumes */
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
		return unavailable("Could not read the stream of idempotency scope " + this.scope, ex);
	}

	/**
	 * {@return how a run under {@code lease} ends: recorded, released or abandoned}
	 * @param lease the acquired lease
	 */
	public BlockingSettlement settlement(Lease lease) {
		return new BlockingSettlement(lease, this.http.reporter(), this.method, this.endpoint.route(), this.endpoint.ttl(),
				SpentKeyMarkers.of(this.endpoint));
	}

	/**
	 * {@return how an asynchronous run under {@code lease} ends}
	 * @param lease the acquired lease
	 */
	public AsyncSettlement settlement(AsyncLease lease) {
		return new AsyncSettlement(lease, this.http.reporter(), this.method, this.endpoint.route(),
				this.endpoint.ttl(), SpentKeyMarkers.of(this.endpoint));
	}

	/** {@return what a recorded stream of this run reports} */
	public StreamReporting streamReporting() {
		return new StreamReporting(this.http.reporter(), this.method, this.endpoint.route());
	}

	/**
	 * The response is done: reports how long the request took.
	 * @param kind a first response or a replay
	 */
	public void responded(IdempotencyListener.ResponseKind kind) {
		this.http.reporter().responded(kind, this.method, this.endpoint.route(),
				Duration.ofNanos(System.nanoTime() - this.started));
	}

	private void resumed(long lastEventId) {
		if (lastEventId > 0) {
			decide(IdempotencyOutcome.STREAM_RESUMED);
		}
	}

	private HttpAction unavailable(String what, IdempotencyStoreException ex) {
		logger.warn(what + "; answering 503: " + ex.describe());
		decide(IdempotencyOutcome.STORE_UNAVAILABLE);
		return new HttpAction.Reject(IdempotencyProblem.storeUnavailable(this.http.settings().retryAfter()));
	}

	private void decide(IdempotencyOutcome outcome) {
		this.http.reporter().decide(outcome, this.method, this.endpoint.route(), this.scope);
	}

}
