package dev.modelgate.idempotency.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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

	private final MemoryRecords records;

	private final Clock clock;

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
		this.records = new MemoryRecords(maxEntries, maxBytes);
		this.clock = clock;
	}

	@Override
	public synchronized BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		Instant now = this.clock.instant();
		MemoryEntry existing = this.records.get(scope);
		if (existing != null && !existing.isExpired(now)) {
			return spentTrimmed(scope, existing, now).answer(fingerprint, now);
		}
		if (existing != null) {
			this.records.remove(scope);
		}
		if (!this.records.makeRoom(1, 0, now)) {
			throw new IdempotencyStoreException("The in-memory idempotency store is full: " + this.records.count()
					+ " records are in progress (max-entries " + this.records.maxEntries + ")");
		}
		this.records.put(scope, MemoryEntry.inProgress(fingerprint, token, now, now.plus(leaseTtl)));
		return BeginResult.acquired();
	}

	@Override
	public synchronized boolean renew(String scope, String token, Duration leaseTtl) {
		Instant now = this.clock.instant();
		MemoryEntry entry = heldBy(scope, token, now);
		if (entry == null) {
			return false;
		}
		Instant expiresAt = now.plus(leaseTtl);
		this.records.replace(scope, entry, entry.withExpiry(expiresAt));
		this.records.expiresNoEarlierThan(expiresAt);
		return true;
	}

	@Override
	public synchronized boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
		Instant now = this.clock.instant();
		MemoryEntry entry = heldBy(scope, token, now);
		if (entry == null) {
			return false;
		}
		this.records.remove(scope);
		StoredOutcome kept = outcome;
		if (kept != null && !this.records.makeRoom(1, kept.size(), now)) {
			logger.warn("The in-memory idempotency store cannot keep the {}-byte outcome of scope {} within "
					+ "max-bytes {}; it is recorded as completed without its result", kept.size(), scope,
					this.records.maxBytes);
			kept = null;
		}
		// Re-inserted, so that completed records are evicted in the order they completed.
		this.records.put(scope, entry.completed(kept, now.plus(ttl)));
		return true;
	}

	@Override
	public synchronized boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl,
			SpentMarker marker) {
		Instant now = this.clock.instant();
		if (!complete(scope, token, outcome, ttl)) {
			return false;
		}
		MemoryEntry completed = this.records.get(scope);
		this.records.replace(scope, completed, completed.spentAfter(now.plus(ttl),
				new SpentKey(marker.status(), now, marker.resource()), now.plus(ttl).plus(marker.retention())));
		this.records.expiresNoEarlierThan(now.plus(ttl));
		return true;
	}

	@Override
	public synchronized boolean release(String scope, String token) {
		if (heldBy(scope, token, this.clock.instant()) == null) {
			return false;
		}
		this.records.remove(scope);
		return true;
	}

	@Override
	public synchronized Optional<IdempotencyRecord> find(String scope) {
		Instant now = this.clock.instant();
		MemoryEntry entry = this.records.get(scope);
		if (entry == null || entry.isExpired(now)) {
			return Optional.empty();
		}
		return Optional.of(spentTrimmed(scope, entry, now).toRecord(scope, now));
	}

	@Override
	public synchronized boolean delete(String scope) {
		MemoryEntry entry = this.records.remove(scope);
		return entry != null && !entry.isExpired(this.clock.instant());
	}

	@Override
	public synchronized boolean openStream(String scope, String token, byte[] head) {
		Instant now = this.clock.instant();
		MemoryEntry entry = heldBy(scope, token, now);
		if (entry == null || entry.stream() != null) {
			return false;
		}
		reserve(head.length, now);
		this.records.replace(scope, entry, entry.withStream(new MemoryStream(head)));
		return true;
	}

	@Override
	public synchronized boolean appendEvents(String scope, String token, long fromSequence, List<byte[]> events) {
		Instant now = this.clock.instant();
		MemoryEntry entry = heldBy(scope, token, now);
		if (entry == null || entry.stream() == null || fromSequence != entry.stream().events.size() + 1) {
			return false;
		}
		long size = 0;
		for (byte[] event : events) {
			size += event.length;
		}
		reserve(size, now);
		entry.stream().append(events, size);
		this.records.grow(size);
		return true;
	}

	@Override
	public synchronized boolean completeStream(String scope, String token, Duration ttl) {
		Instant now = this.clock.instant();
		MemoryEntry entry = heldBy(scope, token, now);
		if (entry == null || entry.stream() == null) {
			return false;
		}
		this.records.remove(scope);
		MemoryStream stream = entry.stream();
		this.records.put(scope, new MemoryEntry(entry.fingerprint(), entry.token(), true,
				new StoredOutcome(StoredOutcome.Kind.STREAM, stream.head), entry.createdAt(), now.plus(ttl), stream));
		return true;
	}

	@Override
	public synchronized Optional<StreamSlice> readStream(String scope, long afterSequence, int max) {
		MemoryEntry entry = this.records.get(scope);
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
		return this.records.live(this.clock.instant());
	}

	/** {@return the bytes of stored outcomes kept now, expired records included until they are swept} */
	public synchronized long storedBytes() {
		return this.records.bytes();
	}

	/** {@return how many completed records were evicted before their expiry to make room} */
	public synchronized long evictions() {
		return this.records.evictions();
	}

	/**
	 * Drops every record and recorded stream, in progress or completed, and the eviction count: the
	 * store is then as new. For tests that share one store (one Spring test context) and must not see
	 * each other's keys; a holder whose record was dropped finds its {@code renew} and
	 * {@code complete} refused, as after an expiry.
	 */
	public synchronized void clear() {
		this.records.clear();
	}

	/** A spent record keeps no answer: its outcome's bytes are given back as soon as it is seen. */
	private MemoryEntry spentTrimmed(String scope, MemoryEntry entry, Instant now) {
		if (!entry.isSpent(now) || entry.size() == 0) {
			return entry;
		}
		MemoryEntry trimmed = entry.trimmed();
		this.records.replace(scope, entry, trimmed);
		return trimmed;
	}

	private @Nullable MemoryEntry heldBy(String scope, String token, Instant now) {
		MemoryEntry entry = this.records.get(scope);
		if (entry == null) {
			return null;
		}
		if (entry.isExpired(now)) {
			this.records.remove(scope);
			return null;
		}
		return (!entry.completed() && entry.token().equals(token)) ? entry : null;
	}

	/** Makes room for {@code size} more bytes of an in-progress stream, or fails. */
	private void reserve(long size, Instant now) {
		if (!this.records.makeRoom(0, size, now)) {
			throw new IdempotencyStoreException("The in-memory idempotency store cannot keep " + size
					+ " more bytes of a stream within max-bytes " + this.records.maxBytes);
		}
	}

}
