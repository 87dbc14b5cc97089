package dev.modelgate.idempotency.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store for a single process, for tests, demos and single-instance deployments. Records vanish
 * with the process, and two instances behind a load balancer do not see each other's keys.
 *
 * <p>The store is bounded, by the number of records and by the bytes of the outcomes it keeps, so
 * that a burst of distinct keys with large responses cannot exhaust the heap. When a new record or
 * an outcome does not fit, expired records go first, then the completed records that completed
 * longest ago (a retry of one of those keys runs again, as it would after its {@code ttl}). A record
 * in progress is never evicted: when in-progress records alone fill {@code maxEntries}, {@code begin}
 * fails with {@link IdempotencyStoreException} (the web filter answers 503, and the operation does
 * not run), and an outcome that cannot fit even after every completed record went is recorded as
 * "completed, result not kept" (retries are told the operation ran instead of running it again).
 *
 * <p>Streams count against {@code maxBytes} too, head and events: an append that cannot fit even
 * after every completed record went fails with {@link IdempotencyStoreException}.
 *
 * <p>Every call takes one lock for a few map operations; none waits for anything else, so callers
 * need no thread hand-off ({@link #callTimeLimit()} is zero).
 */
public class InMemoryIdempotencyStore implements IdempotencyStore {

	/** The default bound on the number of records: 10,000. */
	public static final int DEFAULT_MAX_ENTRIES = 10_000;

	/** The default bound on the bytes of stored outcomes: 64 MiB. */
	public static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;

	private static final Logger logger = LoggerFactory.getLogger(InMemoryIdempotencyStore.class);

	/** In the order records were begun or completed, so the head is the first to evict. */
	private final LinkedHashMap<String, Entry> records = new LinkedHashMap<>();

	private final Clock clock;

	private final int maxEntries;

	private final long maxBytes;

	private long bytes;

	private long evictions;

	/**
	 * No record expires before this instant (a lower bound, exact after each sweep), so that a full
	 * store looks for expired records only when there can be one: sweeping every record on every
	 * {@code begin} of a full store cost hundreds of microseconds per new key at 10,000 records.
	 */
	private Instant noExpiryBefore = Instant.MAX;

	/** A store with {@link #DEFAULT_MAX_ENTRIES} and {@link #DEFAULT_MAX_BYTES}. */
	public InMemoryIdempotencyStore() {
		this(Clock.systemUTC());
	}

	/**
	 * A store with {@link #DEFAULT_MAX_ENTRIES} and {@link #DEFAULT_MAX_BYTES}.
	 * @param clock the store's clock
	 */
	public InMemoryIdempotencyStore(Clock clock) {
		this(clock, DEFAULT_MAX_ENTRIES, DEFAULT_MAX_BYTES);
	}

	/**
	 * @param clock the store's clock
	 * @param maxEntries the most records kept at once, in progress or completed
	 * @param maxBytes the most bytes of stored outcomes kept at once
	 */
	public InMemoryIdempotencyStore(Clock clock, int maxEntries, long maxBytes) {
		if (maxEntries < 1) {
			throw new IllegalArgumentException("maxEntries must be positive, was " + maxEntries);
		}
		if (maxBytes < 1) {
			throw new IllegalArgumentException("maxBytes must be positive, was " + maxBytes);
		}
		this.clock = clock;
		this.maxEntries = maxEntries;
		this.maxBytes = maxBytes;
	}

	@Override
	public synchronized BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		Instant now = this.clock.instant();
		Entry existing = this.records.get(scope);
		if (existing != null && !existing.isExpired(now)) {
			return spentTrimmed(scope, existing, now).answer(fingerprint, now);
		}
		if (existing != null) {
			remove(scope);
		}
		if (!makeRoom(1, 0, now)) {
			throw new IdempotencyStoreException("The in-memory idempotency store is full: " + this.records.size()
					+ " records are in progress (max-entries " + this.maxEntries + ")");
		}
		put(scope, Entry.inProgress(fingerprint, token, now, now.plus(leaseTtl)));
		return BeginResult.acquired();
	}

	@Override
	public synchronized boolean renew(String scope, String token, Duration leaseTtl) {
		Instant now = this.clock.instant();
		Entry entry = heldBy(scope, token, now);
		if (entry == null) {
			return false;
		}
		Instant expiresAt = now.plus(leaseTtl);
		this.records.put(scope, entry.withExpiry(expiresAt));
		expiresNoEarlierThan(expiresAt);
		return true;
	}

	@Override
	public synchronized boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
		Instant now = this.clock.instant();
		Entry entry = heldBy(scope, token, now);
		if (entry == null) {
			return false;
		}
		remove(scope);
		StoredOutcome kept = outcome;
		if (kept != null && !makeRoom(1, kept.size(), now)) {
			logger.warn("The in-memory idempotency store cannot keep the {}-byte outcome of scope {} within "
					+ "max-bytes {}; it is recorded as completed without its result", kept.size(), scope, this.maxBytes);
			kept = null;
		}
		// Re-inserted, so that completed records are evicted in the order they completed.
		put(scope, entry.completed(kept, now.plus(ttl)));
		return true;
	}

	@Override
	public synchronized boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl,
			SpentMarker marker) {
		Instant now = this.clock.instant();
		if (!complete(scope, token, outcome, ttl)) {
			return false;
		}
		Entry completed = this.records.get(scope);
		this.records.put(scope, completed.spentAfter(now.plus(ttl),
				new SpentKey(marker.status(), now, marker.resource()), now.plus(ttl).plus(marker.retention())));
		expiresNoEarlierThan(now.plus(ttl));
		return true;
	}

	@Override
	public synchronized boolean release(String scope, String token) {
		if (heldBy(scope, token, this.clock.instant()) == null) {
			return false;
		}
		remove(scope);
		return true;
	}

	@Override
	public synchronized Optional<IdempotencyRecord> find(String scope) {
		Instant now = this.clock.instant();
		Entry entry = this.records.get(scope);
		if (entry == null || entry.isExpired(now)) {
			return Optional.empty();
		}
		return Optional.of(spentTrimmed(scope, entry, now).toRecord(scope, now));
	}

	@Override
	public synchronized boolean delete(String scope) {
		Entry entry = remove(scope);
		return entry != null && !entry.isExpired(this.clock.instant());
	}

	@Override
	public synchronized boolean openStream(String scope, String token, byte[] head) {
		Instant now = this.clock.instant();
		Entry entry = heldBy(scope, token, now);
		if (entry == null || entry.stream() != null) {
			return false;
		}
		reserve(head.length, now);
		this.records.put(scope, entry.withStream(new RecordedStream(head)));
		this.bytes += head.length;
		return true;
	}

	@Override
	public synchronized boolean appendEvents(String scope, String token, long fromSequence, List<byte[]> events) {
		Instant now = this.clock.instant();
		Entry entry = heldBy(scope, token, now);
		if (entry == null || entry.stream() == null || fromSequence != entry.stream().events.size() + 1) {
			return false;
		}
		long size = 0;
		for (byte[] event : events) {
			size += event.length;
		}
		reserve(size, now);
		for (byte[] event : events) {
			entry.stream().events.add(event.clone());
		}
		entry.stream().bytes += size;
		this.bytes += size;
		return true;
	}

	@Override
	public synchronized boolean completeStream(String scope, String token, Duration ttl) {
		Instant now = this.clock.instant();
		Entry entry = heldBy(scope, token, now);
		if (entry == null || entry.stream() == null) {
			return false;
		}
		remove(scope);
		RecordedStream stream = entry.stream();
		put(scope, new Entry(entry.fingerprint(), entry.token(), true,
				new StoredOutcome(StoredOutcome.Kind.STREAM, stream.head), entry.createdAt(), now.plus(ttl), stream));
		return true;
	}

	@Override
	public synchronized Optional<StreamSlice> readStream(String scope, long afterSequence, int max) {
		Entry entry = this.records.get(scope);
		if (entry == null || entry.isExpired(this.clock.instant()) || entry.stream() == null) {
			return Optional.empty();
		}
		StreamSlice.State state = entry.streamState();
		List<StreamEvent> read = new ArrayList<>();
		if (state != StreamSlice.State.NOT_KEPT) {
			List<byte[]> events = entry.stream().events;
			for (long sequence = afterSequence + 1; sequence <= events.size() && read.size() < max; sequence++) {
				read.add(new StreamEvent(sequence, events.get((int) sequence - 1)));
			}
		}
		return Optional.of(new StreamSlice(entry.stream().head, read, state, entry.token()));
	}

	/** {@return {@code memory}} */
	@Override
	public String type() {
		return "memory";
	}

	/** Never waits: the memory store answers on the caller's thread. */
	@Override
	public Duration callTimeLimit() {
		return Duration.ZERO;
	}

	/** {@return the number of live records, for tests and diagnostics} */
	public synchronized int size() {
		Instant now = this.clock.instant();
		return (int) this.records.values().stream().filter((entry) -> !entry.isExpired(now)).count();
	}

	/** {@return the bytes of stored outcomes kept now, expired records included until they are swept} */
	public synchronized long storedBytes() {
		return this.bytes;
	}

	/** {@return how many completed records were evicted before their expiry to make room} */
	public synchronized long evictions() {
		return this.evictions;
	}

	/**
	 * Drops every record and recorded stream, in progress or completed, and the eviction count: the
	 * store is then as new. For tests that share one store (one Spring test context) and must not see
	 * each other's keys; a holder whose record was dropped finds its {@code renew} and
	 * {@code complete} refused, as after an expiry.
	 */
	public synchronized void clear() {
		this.records.clear();
		this.bytes = 0;
		this.evictions = 0;
		this.noExpiryBefore = Instant.MAX;
	}

	/** A spent record keeps no answer: its outcome's bytes are given back as soon as it is seen. */
	private Entry spentTrimmed(String scope, Entry entry, Instant now) {
		if (!entry.isSpent(now) || entry.size() == 0) {
			return entry;
		}
		Entry trimmed = entry.trimmed();
		this.bytes -= entry.size();
		this.records.put(scope, trimmed);
		return trimmed;
	}

	private @Nullable Entry heldBy(String scope, String token, Instant now) {
		Entry entry = this.records.get(scope);
		if (entry == null) {
			return null;
		}
		if (entry.isExpired(now)) {
			remove(scope);
			return null;
		}
		return (!entry.completed() && entry.token().equals(token)) ? entry : null;
	}

	/**
	 * Frees room for {@code entries} more records holding {@code size} more bytes: expired records
	 * first, then completed ones, oldest first; never a record in progress.
	 * @return whether the room is there
	 */
	private boolean makeRoom(int entries, long size, Instant now) {
		if (size > this.maxBytes) {
			return false;
		}
		if (fits(entries, size)) {
			return true;
		}
		if (!now.isBefore(this.noExpiryBefore)) {
			sweepExpired(now);
		}
		Iterator<Map.Entry<String, Entry>> oldestFirst = this.records.entrySet().iterator();
		long evicted = 0;
		while (!fits(entries, size) && oldestFirst.hasNext()) {
			Entry entry = oldestFirst.next().getValue();
			if (entry.completed()) {
				oldestFirst.remove();
				this.bytes -= entry.size();
				evicted++;
			}
		}
		if (evicted > 0) {
			if (this.evictions == 0) {
				logger.warn("The in-memory idempotency store is full (max-entries {}, max-bytes {}): completed "
						+ "records are evicted before their ttl, and retries of their keys run again", this.maxEntries,
						this.maxBytes);
			}
			this.evictions += evicted;
		}
		return fits(entries, size);
	}

	/** Removes expired records and trims spent ones to their marker, and notes the next time either is due. */
	private void sweepExpired(Instant now) {
		Instant earliest = Instant.MAX;
		Iterator<Map.Entry<String, Entry>> all = this.records.entrySet().iterator();
		while (all.hasNext()) {
			Map.Entry<String, Entry> record = all.next();
			Entry entry = record.getValue();
			if (entry.isExpired(now)) {
				all.remove();
				this.bytes -= entry.size();
				continue;
			}
			if (entry.isSpent(now) && entry.size() > 0) {
				this.bytes -= entry.size();
				entry = entry.trimmed();
				record.setValue(entry);
			}
			else if (entry.answerUntil() != null && entry.size() > 0 && entry.answerUntil().isBefore(earliest)) {
				earliest = entry.answerUntil();
			}
			if (entry.expiresAt().isBefore(earliest)) {
				earliest = entry.expiresAt();
			}
		}
		this.noExpiryBefore = earliest;
	}

	private void expiresNoEarlierThan(Instant expiresAt) {
		if (expiresAt.isBefore(this.noExpiryBefore)) {
			this.noExpiryBefore = expiresAt;
		}
	}

	/** Makes room for {@code size} more bytes of an in-progress stream, or fails. */
	private void reserve(long size, Instant now) {
		if (!makeRoom(0, size, now)) {
			throw new IdempotencyStoreException("The in-memory idempotency store cannot keep " + size
					+ " more bytes of a stream within max-bytes " + this.maxBytes);
		}
	}

	private boolean fits(int entries, long size) {
		return this.records.size() + entries <= this.maxEntries && this.bytes + size <= this.maxBytes;
	}

	private void put(String scope, Entry entry) {
		this.records.put(scope, entry);
		this.bytes += entry.size();
		expiresNoEarlierThan(entry.expiresAt());
	}

	private @Nullable Entry remove(String scope) {
		Entry removed = this.records.remove(scope);
		if (removed != null) {
			this.bytes -= removed.size();
		}
		return removed;
	}

	/**
	 * The head and the events of a stream, appended in place under the store's lock.
	 */
	private static final class RecordedStream {

		final byte[] head;

		final List<byte[]> events = new ArrayList<>();

		/** The head's and the events' bytes. */
		long bytes;

		RecordedStream(byte[] head) {
			this.head = head.clone();
			this.bytes = head.length;
		}

	}

	/**
	 * @param stream the stream the record holds, or {@code null}; a completed record keeps its events
	 * only when it completed as a stream
	 */
	private record Entry(String fingerprint, String token, boolean completed, @Nullable StoredOutcome outcome,
			Instant createdAt, Instant expiresAt, @Nullable RecordedStream stream, @Nullable Instant answerUntil,
			@Nullable SpentKey spent) {

		Entry(String fingerprint, String token, boolean completed, @Nullable StoredOutcome outcome, Instant createdAt,
				Instant expiresAt, @Nullable RecordedStream stream) {
			this(fingerprint, token, completed, outcome, createdAt, expiresAt, stream, null, null);
		}

		static Entry inProgress(String fingerprint, String token, Instant createdAt, Instant expiresAt) {
			return new Entry(fingerprint, token, false, null, createdAt, expiresAt, null);
		}

		/** Whether the answer expired and only the spent key's marker counts. */
		boolean isSpent(Instant now) {
			return this.answerUntil != null && !now.isBefore(this.answerUntil);
		}

		/** Keeps the answer until {@code answerUntil}, then the marker until {@code expiresAt}. */
		Entry spentAfter(Instant answerUntil, SpentKey spent, Instant expiresAt) {
			return new Entry(this.fingerprint, this.token, this.completed, this.outcome, this.createdAt, expiresAt,
					this.stream, answerUntil, spent);
		}

		/** The marker alone: the answer's bytes go. */
		Entry trimmed() {
			return new Entry(this.fingerprint, this.token, this.completed, null, this.createdAt, this.expiresAt, null,
					this.answerUntil, this.spent);
		}

		StreamSlice.State streamState() {
			if (!this.completed) {
				return StreamSlice.State.STREAMING;
			}
			return (this.outcome != null && this.outcome.kind() == StoredOutcome.Kind.STREAM)
					? StreamSlice.State.COMPLETED : StreamSlice.State.NOT_KEPT;
		}

		boolean isExpired(Instant now) {
			return !now.isBefore(this.expiresAt);
		}

		long size() {
			if (this.stream != null) {
				return this.stream.bytes;
			}
			return (this.outcome != null) ? this.outcome.size() : 0;
		}

		BeginResult answer(String requested, Instant now) {
			if (!this.fingerprint.equals(requested)) {
				return BeginResult.mismatch();
			}
			if (this.spent != null && isSpent(now)) {
				return BeginResult.spent(this.spent);
			}
			return this.completed ? BeginResult.completed(this.outcome) : BeginResult.inProgress();
		}

		Entry withExpiry(Instant expiresAt) {
			return new Entry(this.fingerprint, this.token, this.completed, this.outcome, this.createdAt, expiresAt,
					this.stream);
		}

		Entry withStream(RecordedStream stream) {
			return new Entry(this.fingerprint, this.token, this.completed, this.outcome, this.createdAt,
					this.expiresAt, stream);
		}

		/** A stream completed this way is not kept: only its head stays, to tell followers so. */
		Entry completed(@Nullable StoredOutcome outcome, Instant expiresAt) {
			return new Entry(this.fingerprint, this.token, true, outcome, this.createdAt, expiresAt,
					(this.stream != null) ? new RecordedStream(this.stream.head) : null);
		}

		IdempotencyRecord toRecord(String scope, Instant now) {
			IdempotencyRecord.State state = this.completed ? IdempotencyRecord.State.COMPLETED
					: IdempotencyRecord.State.IN_PROGRESS;
			return new IdempotencyRecord(scope, state, this.createdAt, this.expiresAt, now,
					(this.outcome != null) ? this.outcome.kind() : null,
					(this.outcome != null) ? (long) this.outcome.size() : null);
		}

	}

}
