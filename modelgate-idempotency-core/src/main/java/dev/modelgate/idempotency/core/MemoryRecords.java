package dev.modelgate.idempotency.core;

import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The records of an {@link InMemoryIdempotencyStore}, kept within its bounds on their number and
 * their bytes: to make room, expired records go first, then completed ones, oldest first; never a
 * record in progress. Not thread-safe: the store calls it under its lock.
 */
final class MemoryRecords {

	private static final Logger logger = LoggerFactory.getLogger(InMemoryIdempotencyStore.class);

	final int maxEntries;

	final long maxBytes;

	/** In the order records were begun or completed, so the head is the first to evict. */
	private final LinkedHashMap<String, MemoryEntry> records = new LinkedHashMap<>();

	private long bytes;

	private long evictions;

	/**
	 * No record expires before this instant (a lower bound, exact after each sweep), so that a full
	 * store looks for expired records only when there can be one: sweeping every record on every
	 * {@code begin} of a full store cost hundreds of microseconds per new key at 10,000 records.
	 */
	private Instant noExpiryBefore = Instant.MAX;

	MemoryRecords(int maxEntries, long maxBytes) {
		if (maxEntries < 1) {
			throw new IllegalArgumentException("maxEntries must be positive, was " + maxEntries);
		}
		if (maxBytes < 1) {
			throw new IllegalArgumentException("maxBytes must be positive, was " + maxBytes);
		}
		this.maxEntries = maxEntries;
		this.maxBytes = maxBytes;
	}

	@Nullable MemoryEntry get(String scope) {
		return this.records.get(scope);
	}

	void put(String scope, MemoryEntry entry) {
		this.records.put(scope, entry);
		this.bytes += entry.size();
		expiresNoEarlierThan(entry.expiresAt());
	}

	/** Puts {@code entry} in the place of {@code old}, keeping the eviction order. */
	void replace(String scope, MemoryEntry old, MemoryEntry entry) {
		this.records.put(scope, entry);
		this.bytes += entry.size() - old.size();
	}

	/** Counts {@code size} more bytes, appended to a record's stream. */
	void grow(long size) {
		this.bytes += size;
	}

	@Nullable MemoryEntry remove(String scope) {
		MemoryEntry removed = this.records.remove(scope);
		if (removed != null) {
			this.bytes -= removed.size();
		}
		return removed;
	}

	/** Notes that a record expires, or its answer does, at {@code expiresAt}. */
	void expiresNoEarlierThan(Instant expiresAt) {
		if (expiresAt.isBefore(this.noExpiryBefore)) {
			this.noExpiryBefore = expiresAt;
		}
	}

	/** {@return the number of records in the map, expired ones included until they are swept} */
	int count() {
		return this.records.size();
	}

	int live(Instant now) {
		return (int) this.records.values().stream().filter((entry) -> !entry.isExpired(now)).count();
	}

	long bytes() {
		return this.bytes;
	}

	long evictions() {
		return this.evictions;
	}

	void clear() {
		this.records.clear();
		this.bytes = 0;
		this.evictions = 0;
		this.noExpiryBefore = Instant.MAX;
	}

	/**
	 * Frees room for {@code entries} more records holding {@code size} more bytes: expired records
	 * first, then completed ones, oldest first; never a record in progress.
	 * @return whether the room is there
	 */
	boolean makeRoom(int entries, long size, Instant now) {
		if (size > this.maxBytes) {
			return false;
		}
		if (fits(entries, size)) {
			return true;
		}
		if (!now.isBefore(this.noExpiryBefore)) {
			sweepExpired(now);
		}
		Iterator<Map.Entry<String, MemoryEntry>> oldestFirst = this.records.entrySet().iterator();
		long evicted = 0;
		while (!fits(entries, size) && oldestFirst.hasNext()) {
			MemoryEntry entry = oldestFirst.next().getValue();
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
		Iterator<Map.Entry<String, MemoryEntry>> all = this.records.entrySet().iterator();
		while (all.hasNext()) {
			Map.Entry<String, MemoryEntry> record = all.next();
			MemoryEntry entry = record.getValue();
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

	private boolean fits(int entries, long size) {
		return this.records.size() + entries <= this.maxEntries && this.bytes + size <= this.maxBytes;
	}

}
