package dev.modelgate.idempotency.core;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Where idempotency records live: one record per scope hash, moved through its states by four
 * atomic transitions. Implementations must make each method atomic against concurrent callers on
 * any number of processes, and must throw {@link IdempotencyStoreException} (never return a
 * made-up answer) when the store cannot be asked.
 *
 * <pre>
 *   (absent) --begin--> in_progress(token, lease) --complete--> completed(outcome, ttl)
 *                            |   ^ renew                 \--release--> (absent)
 *                            \-- lease expires --> (absent)
 * </pre>
 *
 * {@code renew}, {@code complete} and {@code release} only act for the holder of the current token,
 * so a holder whose lease ran out and was taken over cannot touch the new holder's record.
 *
 * <p>{@link #find} and {@link #delete} are for operators (the Actuator endpoint and the health
 * check), not for the state machine. They have defaults that throw, so that stores written before
 * they existed still compile; the built-in stores implement both.
 *
 * <p>A record in progress can hold a <em>stream</em>: its holder {@link #openStream opens} it with an
 * opaque head, {@link #appendEvents appends} events numbered 1, 2, 3... without gaps, and
 * {@link #completeStream completes} it, after which {@code begin} answers {@code COMPLETED} with an
 * outcome of kind {@link StoredOutcome.Kind#STREAM STREAM} whose payload is the head. Anyone may
 * {@link #readStream read} it meanwhile, from any process, to follow it live. A stream that is
 * released or expires is gone with its record; one completed with {@link #complete} (no outcome kept)
 * no longer replays. These methods too have defaults that throw, for stores without streams.
 */
public interface IdempotencyStore {

	/**
	 * Acquires the scope for a new attempt, or reports what holds it.
	 * @param scope the scope hash
	 * @param fingerprint the request fingerprint
	 * @param token a fresh random token that identifies this attempt
	 * @param leaseTtl how long the acquisition holds without a {@link #renew renewal}
	 * @return {@code ACQUIRED} when no live record existed; otherwise, checked in this order,
	 * {@code MISMATCH}, {@code IN_PROGRESS} or {@code COMPLETED} (with the stored outcome, or
	 * {@code null} when the result was not kept)
	 */
	BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl);

	/**
	 * Extends the lease of an in-progress record.
	 * @param scope the scope hash
	 * @param token the token the holder began with
	 * @param leaseTtl the new lease, counted from now
	 * @return {@code false} when the record is gone or held by another token
	 */
	boolean renew(String scope, String token, Duration leaseTtl);

	/**
	 * Records the outcome of an attempt and keeps it for {@code ttl}.
	 * @param scope the scope hash
	 * @param token the token the holder began with
	 * @param outcome the outcome to replay, kept byte for byte, or {@code null} when the operation ran
	 * but its result is not kept (retries are told so instead of running it again)
	 * @param ttl how long the completed record is kept
	 * @return {@code false} when the record is gone or held by another token
	 */
	boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl);

	/**
	 * Records the outcome of an attempt, keeps it for {@code ttl}, and then keeps the key spent for
	 * the marker's retention: {@code begin} with the same fingerprint answers
	 * {@link BeginResult.Outcome#SPENT SPENT} with the marker's status, the completion time and the
	 * resource, another fingerprint {@code MISMATCH}; after the retention the key is free again. The
	 * answer itself may be dropped at {@code ttl}.
	 *
	 * <p>The default ignores the marker and calls {@link #complete(String, String, StoredOutcome, Duration)}:
	 * a store written before markers existed keeps the answer for {@code ttl} and then frees the key,
	 * as with no retention. The built-in stores keep markers.
	 * @param scope the scope hash
	 * @param token the token the holder began with
	 * @param outcome the outcome to replay, or {@code null} when the result is not kept
	 * @param ttl how long the answer is kept
	 * @param marker what stays after {@code ttl}, and for how long
	 * @return {@code false} when the record is gone or held by another token
	 */
	default boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl,
			SpentMarker marker) {
		return complete(scope, token, outcome, ttl);
	}

	/**
	 * Deletes an in-progress record so that a retry runs again.
	 * @param scope the scope hash
	 * @param token the token the holder began with
	 * @return {@code false} when the record is gone or held by another token
	 */
	boolean release(String scope, String token);

	/**
	 * Reads what an operator may see of a live record: state, times, and the kind and size of the
	 * stored outcome; never the outcome itself, the fingerprint or the token. A record past its expiry is not found.
	 * @param scope the scope hash
	 * @return the record, or empty when there is no live record for the scope
	 * @throws IdempotencyStoreException when the store cannot be asked or the record is unreadable
	 * @throws UnsupportedOperationException when the store does not offer inspection
	 */
	default Optional<IdempotencyRecord> find(String scope) {
		throw new UnsupportedOperationException(getClass().getName() + " does not support find");
	}

	/**
	 * Deletes the record whatever its state or token, so that the next request with its key runs
	 * again. A holder still running loses its lease: its {@code complete} and {@code release} are
	 * then refused.
	 * @param scope the scope hash
	 * @return whether a live record was deleted
	 * @throws IdempotencyStoreException when the store cannot be asked
	 * @throws UnsupportedOperationException when the store does not offer deletion
	 */
	default boolean delete(String scope) {
		throw new UnsupportedOperationException(getClass().getName() + " does not support delete");
	}

	/**
	 * Marks the holder's in-progress record as a stream and keeps its head; its events follow.
	 * @param scope the scope hash
	 * @param token the token the holder began with
	 * @param head the stream's head, kept byte for byte (what a follower needs before the first event)
	 * @return {@code false} when the record is gone, held by another token, or already a stream
	 * @throws IdempotencyStoreException when the store cannot be asked
	 * @throws UnsupportedOperationException when the store does not record streams
	 */
	default boolean openStream(String scope, String token, byte[] head) {
		throw new UnsupportedOperationException(getClass().getName() + " does not record streams");
	}

	/**
	 * Appends events to the holder's open stream, all or none.
	 * @param scope the scope hash
	 * @param token the token the holder began with
	 * @param fromSequence the sequence of the first of {@code events}: one more than the last appended
	 * (1 for the first)
	 * @param events the events' bytes, in order, kept byte for byte
	 * @return {@code false} when the record is gone, held by another token, not an open stream, or when
	 * {@code fromSequence} does not follow the last appended event
	 * @throws IdempotencyStoreException when the store cannot be asked
	 * @throws UnsupportedOperationException when the store does not record streams
	 */
	default boolean appendEvents(String scope, String token, long fromSequence, List<byte[]> events) {
		throw new UnsupportedOperationException(getClass().getName() + " does not record streams");
	}

	/**
	 * Ends the holder's open stream normally and keeps it, head and events, for {@code ttl}.
	 * @param scope the scope hash
	 * @param token the token the holder began with
	 * @param ttl how long the completed stream is kept
	 * @return {@code false} when the record is gone, held by another token, or not an open stream
	 * @throws IdempotencyStoreException when the store cannot be asked
	 * @throws UnsupportedOperationException when the store does not record streams
	 */
	default boolean completeStream(String scope, String token, Duration ttl) {
		throw new UnsupportedOperationException(getClass().getName() + " does not record streams");
	}

	/**
	 * Reads a live record's stream, for replay and for followers, whoever holds it.
	 * @param scope the scope hash
	 * @param afterSequence the last sequence already seen (0 for the whole stream)
	 * @param max the most events to read
	 * @return the head, the events after {@code afterSequence} (at most {@code max}) and the stream's
	 * state; empty when there is no live record or it holds no stream
	 * @throws IdempotencyStoreException when the store cannot be asked or the stream is unreadable
	 * @throws UnsupportedOperationException when the store does not record streams
	 */
	default Optional<StreamSlice> readStream(String scope, long afterSequence, int max) {
		throw new UnsupportedOperationException(getClass().getName() + " does not record streams");
	}

	/**
	 * A short, stable name for the kind of store, for metric tags and health details: the built-in
	 * stores answer {@code redis}, {@code jdbc} and {@code memory}; by default the lower-case simple
	 * class name, looking through anonymous subclasses and class-based proxies ({@code Foo$$SpringCGLIB$$0}).
	 * @return the kind's name
	 */
	default String type() {
		return IdempotencyStores.nameOf(getClass());
	}

	/**
	 * The longest a call to this store can take on a connected store, when the store enforces that
	 * limit itself (a client's command timeout, or a store that never waits). A caller that bounds
	 * every call by a timeout at least this long can then call the store directly, instead of
	 * handing each call to another thread that it can abandon.
	 * @return the limit, or {@code null} (the default) when the store does not bound its calls
	 */
	default @Nullable Duration callTimeLimit() {
		return null;
	}

	/**
	 * The store as the holder of a lease acquired on the calling thread calls it, from whichever
	 * thread it then runs on (the heartbeat's renewals, a stream's writes from the handler's thread):
	 * a decorator that keeps something of the acquiring thread for those calls (the tracing parent of
	 * a stream's spans) returns a view that carries it, so that nothing has to be looked up by scope
	 * later. A decorator of another decorator should return its own view over
	 * {@code delegate.forHolder(scope)}.
	 * @param scope the scope hash of the lease just acquired
	 * @return the store the lease calls; this store by default
	 */
	default IdempotencyStore forHolder(String scope) {
		return this;
	}

}
