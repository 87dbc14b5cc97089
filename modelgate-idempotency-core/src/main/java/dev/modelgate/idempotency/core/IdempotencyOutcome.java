package dev.modelgate.idempotency.core;

import java.util.Locale;

/**
 * What was decided at one point of a keyed request (to an {@code @Idempotent} endpoint) or call (of
 * {@link IdempotencyTemplate}). A keyed request gets one decision before its handler would run (the first group below)
 * and, when it acquired the key, one more once the handler is done (the second group);
 * {@link #WAITED} comes in addition, before the decision a waiting duplicate ends with, and so do
 * {@link #UNIDENTIFIED_SHARED} and {@link #UNIDENTIFIED_SKIPPED}, before the decision of a request
 * without a client identity, and {@link #STREAM_RESUMED}, before the {@link #ATTACHED} or
 * {@link #STREAM_REPLAYED} of a request that resumes a stream with {@code Last-Event-ID}.
 */
public enum IdempotencyOutcome {

	/** The key was free: the handler runs under a lease. */
	ACQUIRED("absent -> in_progress: lease acquired, running the handler"),

	/** The key's request completed earlier: its stored response is replayed. */
	REPLAYED("completed: replaying the stored response"),

	/** The key's request streamed earlier and its stream was recorded: its events are replayed. */
	STREAM_REPLAYED("completed: replaying the recorded stream"),

	/**
	 * The request carries {@code Last-Event-ID}: it receives only the events after that one (live or
	 * recorded); comes in addition, before {@link #ATTACHED} or {@link #STREAM_REPLAYED}.
	 */
	STREAM_RESUMED("resuming the stream after the client's Last-Event-ID"),

	/** The key's request completed earlier but its result was not kept: answered 410. */
	RESULT_UNAVAILABLE("completed without a kept result: answered 410"),

	/**
	 * The key's request completed earlier, its answer expired, and the key is still spent: answered
	 * 410 {@code idempotency_key_spent}, not run.
	 */
	SPENT("completed, answer expired, key still spent: answered 410"),

	/**
	 * The same request is still streaming under the key: the duplicate attached to its recorded
	 * stream and follows it to its end.
	 */
	ATTACHED("in_progress: a duplicate attached to the recorded stream"),

	/** The same request is still running under the key: answered 409. */
	IN_PROGRESS("in_progress: a duplicate is still running, answered 409"),

	/** The key was used before for a different request: answered 422 (or the configured status). */
	MISMATCH("key reused for a different request: refused with mismatch-status (422 by default)"),

	/** The key header is malformed: answered 400. */
	INVALID_KEY("key invalid: answered 400"),

	/**
	 * An identity source is configured but the request has no identity (no principal, no identity
	 * header): answered 400 rather than put into a scope shared with other unidentified clients.
	 */
	UNIDENTIFIED("no client identity while an identity source is configured: answered 400"),

	/**
	 * The request has no client identity and enters the key space that every unidentified client
	 * shares (no identity source is configured, or unidentified clients may share); comes in addition,
	 * before the decision the request ends with.
	 */
	UNIDENTIFIED_SHARED("no client identity: in the key space shared by every unidentified client"),

	/**
	 * The request has no client identity and unidentified clients skip idempotency: followed by
	 * {@link #BYPASSED}.
	 */
	UNIDENTIFIED_SKIPPED("no client identity: skipping idempotency (unidentified-clients=skip)"),

	/** No key on a {@code required = true} endpoint: answered 400. */
	MISSING_KEY("no key on a required endpoint: answered 400"),

	/** The body is over {@code max-request-size}: answered 413. */
	TOO_LARGE("request body over max-request-size: answered 413"),

	/** The body could not be read to fingerprint it: answered 400. */
	UNREADABLE("request body unreadable: answered 400"),

	/** {@code begin} failed: answered 503, unless the endpoint proceeds without protection. */
	STORE_UNAVAILABLE("store unavailable for begin"),

	/**
	 * The handler runs without protection: a request without a key on an endpoint that does not
	 * require one, a store failure on an endpoint with {@code onStoreFailure = PROCEED}, or an
	 * unidentified client when unidentified clients skip idempotency.
	 */
	BYPASSED("running the handler without idempotency protection"),

	/** A duplicate on an {@code inProgress = WAIT} endpoint waited for the running request. */
	WAITED("waited for the running duplicate"),

	/** The handler's response was recorded for replay. */
	RECORDED("in_progress -> completed: response recorded"),

	/** The handler's stream ended normally and was recorded, every event of it, for replay. */
	STREAM_RECORDED("in_progress -> completed: stream recorded"),

	/** The key was released (5xx, 408/409/425/429, exception, streaming), so a retry runs again. */
	RELEASED("in_progress -> absent: released, a retry runs again"),

	/** Completing or releasing was refused: another attempt took the key over, or it was deleted. */
	LEASE_LOST("lease lost to another attempt or a deletion: nothing written"),

	/** Completing failed at the store; the client still gets the response, the lease runs out. */
	COMPLETE_FAILED("recording failed at the store: the lease will run out"),

	/** Releasing failed at the store; the lease runs out on its own. */
	RELEASE_FAILED("releasing failed at the store: the lease will run out");

	private final String narration;

	IdempotencyOutcome(String narration) {
		this.narration = narration;
	}

	/** {@return the lower-case name used as a metric tag value, for example {@code in_progress}} */
	public String tagValue() {
		return name().toLowerCase(Locale.ROOT);
	}

	/** {@return a short account of the decision, for the transitions log} */
	public String narration() {
		return this.narration;
	}

}
