package dev.modelgate.idempotency.web.internal;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.AsyncIdempotencyCoordinator;
import dev.modelgate.idempotency.core.AsyncLease;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyKey;
import dev.modelgate.idempotency.core.IdempotencyScope;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.InvalidIdempotencyKeyException;
import dev.modelgate.idempotency.core.Lease;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.web.AmbiguousClientIdentityException;
import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.IdempotencyProblem;
import dev.modelgate.idempotency.web.KeyedRequestSettings;

/**
 * One request to the {@link StatusResource}: the token and the key, then the client identity, then
 * the store's answer, to one {@link HttpAction}: {@link HttpAction.Pending} (202) while the request
 * runs, {@link HttpAction.Replay} once it completed, or a {@link HttpAction.Reject}. Nothing runs.
 * A stream is followed from the store as a duplicate follows it: {@link HttpAction#REPLAY_STREAM} once
 * it completed, {@link HttpAction#ATTACH} while it runs for a client that accepts
 * {@code text/event-stream}; the adapter reports what it found with {@link #followed} or
 * {@link #notFollowed}.
 *
 * <p>The store is asked with {@code begin} for the token's fingerprint, in the scope this client's
 * identity gives, with a short lease: a record answers what it holds; no record means the lease was
 * acquired, and it is released at once (the key is unknown, 404). Another client's token therefore
 * names a scope with no record, and gets the same 404 as a key never used.
 */
public final class StatusLookup {

	/**
	 * The lease of a lookup that finds no record: released at once; if the instance dies first, the key
	 * is held no longer than this.
	 */
	static final Duration LEASE = Duration.ofSeconds(1);

	private static final Log logger = LogFactory.getLog(StatusResource.class);

	private final HttpDecision http;

	private @Nullable StatusToken token;

	private @Nullable IdempotencyKey key;

	private @Nullable HttpAction refusal;

	private @Nullable String scope;

	private final boolean acceptsStream;

	StatusLookup(HttpDecision http, String token, List<String> keyValues, @Nullable String accept) {
		this.http = http;
		this.acceptsStream = accept != null && accept.toLowerCase(Locale.ROOT).contains("text/event-stream");
		try {
			this.token = StatusToken.decode(token);
		}
		catch (IllegalArgumentException ex) {
			this.refusal = refuse("invalid", IdempotencyProblem.statusTokenInvalid(ex.getMessage()));
			return;
		}
		try {
			this.key = IdempotencyKey.parse(keyValues, http.settings().keyMaxLength());
		}
		catch (InvalidIdempotencyKeyException ex) {
			this.refusal = refuse("invalid", IdempotencyProblem.keyInvalid(ex.getMessage()));
			return;
		}
		if (this.key == null) {
			this.refusal = refuse("invalid", IdempotencyProblem.keyMissing(http.settings().headerName()));
		}
	}

	/** {@return the 400 for a bad token or key}, or {@code null} when the lookup goes on to {@link #identify} */
	public @Nullable HttpAction refusal() {
		return this.refusal;
	}

	/**
	 * The client identity, as for a keyed request.
	 * @param identity what the identity resolver found, or {@code null}
	 * @return {@code null} when the lookup goes on to the store; else the answer
	 */
	public @Nullable HttpAction identify(@Nullable String identity) {
		KeyedRequestSettings settings = this.http.settings();
		String known = identity;
		if (known == null) {
			switch (settings.unidentifiedClients()) {
				case REJECT -> {
					return refuse("invalid", IdempotencyProblem.clientUnidentified(settings.clientIdentityHeader()));
				}
				// Requests of unidentified clients run unprotected: none of them has a record.
				case SKIP -> {
					return refuse("unknown", IdempotencyProblem.keyUnknown());
				}
				default -> known = ClientIdentities.ANONYMOUS;
			}
		}
		StatusToken named = token();
		this.scope = IdempotencyScope.of(known, named.method(), named.scopeName(), key()).hash();
		return null;
	}

	/**
	 * The client identity header came more than once.
	 * @param ex what the resolver found
	 * @return the 400
	 */
	public HttpAction identityAmbiguous(AmbiguousClientIdentityException ex) {
		return refuse("invalid", IdempotencyProblem.clientAmbiguous(ex.getIdentityHeader()));
	}

	/**
	 * Asks a blocking store.
	 * @param coordinator the store's coordinator
	 * @return the answer
	 */
	public HttpAction lookUp(IdempotencyCoordinator coordinator) {
		BeginResult result;
		try {
			IdempotencyCoordinator.Attempt attempt = coordinator.begin(scope(), token().fingerprint(), LEASE,
					Duration.ZERO);
			release(attempt.lease());
			result = attempt.result();
		}
		catch (IdempotencyStoreException ex) {
			return storeFailed(ex);
		}
		return answer(result);
	}

	/**
	 * Asks a store without blocking.
	 * @param coordinator the store's coordinator
	 * @return the answer, never failed
	 */
	public CompletableFuture<HttpAction> lookUp(AsyncIdempotencyCoordinator coordinator) {
		return coordinator.begin(scope(), token().fingerprint(), LEASE, Duration.ZERO).thenCompose((attempt) -> {
			AsyncLease lease = attempt.lease();
			CompletableFuture<?> released = (lease != null)
					? lease.release().handle((done, failure) -> done) : CompletableFuture.completedFuture(null);
			return released.thenApply((done) -> answer(attempt.result()));
		}).exceptionally((failure) -> {
			Throwable cause = (failure instanceof CompletionException) ? failure.getCause() : failure;
			if (cause instanceof IdempotencyStoreException ex) {
				return storeFailed(ex);
			}
			throw (failure instanceof CompletionException completion) ? completion : new CompletionException(failure);
		});
	}

	/** No record: the lookup's own lease goes at once (or, if the store fails now, runs out on its own). */
	private void release(@Nullable Lease lease) {
		if (lease == null) {
			return;
		}
		try {
			lease.release();
		}
		catch (IdempotencyStoreException ex) {
			logger.debug("A status lookup's lease of scope " + this.scope + " runs out on its own: " + ex.describe());
		}
	}

	private HttpAction answer(BeginResult result) {
		return switch (result.outcome()) {
			case ACQUIRED, MISMATCH -> refuse("unknown", IdempotencyProblem.keyUnknown());
			case IN_PROGRESS -> this.acceptsStream ? HttpAction.ATTACH : pending();
			case SPENT -> refuse("spent", IdempotencyProblem.keySpent(result.spent()));
			case COMPLETED -> completed(result.stored());
		};
	}

	private HttpAction completed(@Nullable StoredOutcome stored) {
		if (stored == null) {
			return refuse("result_unavailable", IdempotencyProblem.resultUnavailable());
		}
		if (stored.kind() == StoredOutcome.Kind.STREAM) {
			return HttpAction.REPLAY_STREAM;
		}
		try {
			HttpResponseRecord response = HttpResponseRecord.decode(stored);
			report("replayed");
			return new HttpAction.Replay(response);
		}
		catch (IdempotencyStoreException ex) {
			return storeFailed(ex);
		}
	}

	/**
	 * The adapter found the stream of {@link HttpAction#ATTACH} or {@link HttpAction#REPLAY_STREAM} and
	 * follows it.
	 * @param action what the lookup answered
	 */
	public void followed(HttpAction action) {
		report((action == HttpAction.ATTACH) ? "attached" : "replayed");
	}

	/**
	 * The scope holds no stream: a running request that does not stream (or has not begun to) is
	 * pending; a completed stream no longer readable is unavailable.
	 * @param action what the lookup answered, {@link HttpAction#ATTACH} or {@link HttpAction#REPLAY_STREAM}
	 * @return the answer instead
	 */
	public HttpAction notFollowed(HttpAction action) {
		return (action == HttpAction.ATTACH) ? pending()
				: refuse("result_unavailable", IdempotencyProblem.resultUnavailable());
	}

	/**
	 * The store failed when the stream was first read.
	 * @param ex the failure
	 * @return the 503
	 */
	public HttpAction storeFailed(IdempotencyStoreException ex) {
		logger.warn("Idempotency store unavailable for a status lookup of scope " + this.scope + "; answering 503: "
				+ ex.describe());
		return refuse("store_unavailable", IdempotencyProblem.storeUnavailable(this.http.settings().retryAfter()));
	}

	private HttpAction pending() {
		report("in_progress");
		return new HttpAction.Pending(this.http.settings().retryAfter());
	}

	private HttpAction refuse(String outcome, IdempotencyProblem problem) {
		report(outcome);
		return new HttpAction.Reject(problem);
	}

	private void report(String outcome) {
		this.http.reporter().statusLookedUp(outcome);
	}

	private StatusToken token() {
		StatusToken known = this.token;
		if (known == null) {
			throw new IllegalStateException("The lookup was refused: " + this.refusal);
		}
		return known;
	}

	private IdempotencyKey key() {
		IdempotencyKey known = this.key;
		if (known == null) {
			throw new IllegalStateException("The lookup was refused: " + this.refusal);
		}
		return known;
	}

	/** {@return the scope the lookup names}, once {@link #identify} let it go on */
	public String scope() {
		String known = this.scope;
		if (known == null) {
			throw new IllegalStateException("The scope is known once the identity is");
		}
		return known;
	}

}
