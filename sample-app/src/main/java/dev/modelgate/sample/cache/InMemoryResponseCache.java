package dev.modelgate.sample.cache;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A cache in this process's memory, bounded by entry count (least recently used go first) and by
 * age. Used unless the idempotency store is Redis.
 */
public class InMemoryResponseCache implements ResponseCache {

	private final Duration ttl;

	private final Clock clock;

	private final Map<String, Entry> entries;

	/**
	 * @param ttl how long an answer is served
	 * @param maxEntries how many answers are kept at most
	 * @param clock the clock expiry is judged by
	 */
	public InMemoryResponseCache(Duration ttl, int maxEntries, Clock clock) {
		this.ttl = ttl;
		this.clock = clock;
		this.entries = new LinkedHashMap<>(16, 0.75f, true) {
			@Override
			protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
				return size() > maxEntries;
			}
		};
	}

	@Override
	public synchronized Optional<byte[]> get(String key) {
		Entry entry = this.entries.get(key);
		if (entry == null) {
			return Optional.empty();
		}
		if (!this.clock.instant().isBefore(entry.expiresAt())) {
			this.entries.remove(key);
			return Optional.empty();
		}
		return Optional.of(entry.body());
	}

	@Override
	public synchronized void put(String key, byte[] body) {
		this.entries.put(key, new Entry(body, this.clock.instant().plus(this.ttl)));
	}

	private record Entry(byte[] body, Instant expiresAt) {
	}

}
