package dev.modelgate.idempotency.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A store for a single process, for tests, demos and single-instance deployments. Records vanish
 * with the process, and two instances behind a load balancer do not see each other's keys.
 */
public class InMemoryIdempotencyStore implements IdempotencyStore {

	private static final int SWEEP_EVERY = 1024;

	private final Map<String, Entry> records = new ConcurrentHashMap<>();

	private final Clock clock;

	private int writesSinceSweep;

	public InMemoryIdempotencyStore() {
		this(Clock.systemUTC());
	}

	public InMemoryIdempotencyStore(Clock clock) {
		this.clock = clock;
	}

	@Override
	public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		Instant now = this.clock.instant();
		AtomicReference<BeginResult> result = new AtomicReference<>();
		this.records.compute(scope, (key, existing) -> {
			if (existing == null || existing.isExpired(now)) {
				result.set(BeginResult.acquired());
				return Entry.inProgress(fingerprint, token, now.plus(leaseTtl));
			}
			result.set(existing.answer(fingerprint));
			return existing;
		});
		sweepOccasionally(now);
		return result.get();
	}

	@Override
	public boolean renew(String scope, String token, Duration leaseTtl) {
		return transition(scope, token, (entry, now) -> entry.withExpiry(now.plus(leaseTtl)));
	}

	@Override
	public boolean complete(String scope, String token, StoredResponse response, Duration ttl) {
		return transition(scope, token, (entry, now) -> entry.completed(response, now.plus(ttl)));
	}

	/**
	 * Every call is a map update in this process, so none waits on anything but another call's
	 * update. A subclass may wait on anything, so only this class itself says so.
	 */
	@Override
	public Duration callTimeLimit() {
		return (getClass() == InMemoryIdempotencyStore.class) ? Duration.ZERO : null;
	}

	@Override
	public boolean release(String scope, String token) {
		return transition(scope, token, (entry, now) -> null);
	}

	/** Applies a change to the record held by {@code token}; false when it is not held by it. */
	private boolean transition(String scope, String token, Change change) {
		Instant now = this.clock.instant();
		boolean[] applied = { false };
		this.records.computeIfPresent(scope, (key, entry) -> {
			if (entry.isExpired(now)) {
				return null;
			}
			if (entry.completed || !entry.token.equals(token)) {
				return entry;
			}
			applied[0] = true;
			return change.apply(entry, now);
		});
		return applied[0];
	}

	private void sweepOccasionally(Instant now) {
		// A racy counter is fine: the sweep only bounds memory, correctness comes from isExpired.
		if (++this.writesSinceSweep >= SWEEP_EVERY) {
			this.writesSinceSweep = 0;
			this.records.values().removeIf((entry) -> entry.isExpired(now));
		}
	}

	/** Number of live records, for tests and diagnostics. */
	public int size() {
		Instant now = this.clock.instant();
		return (int) this.records.values().stream().filter((entry) -> !entry.isExpired(now)).count();
	}

	private interface Change {

		Entry apply(Entry entry, Instant now);

	}

	private record Entry(String fingerprint, String token, boolean completed, StoredResponse response,
			Instant expiresAt) {

		static Entry inProgress(String fingerprint, String token, Instant expiresAt) {
			return new Entry(fingerprint, token, false, null, expiresAt);
		}

		boolean isExpired(Instant now) {
			return !now.isBefore(this.expiresAt);
		}

		BeginResult answer(String requested) {
			if (!this.fingerprint.equals(requested)) {
				return BeginResult.mismatch();
			}
			return this.completed ? BeginResult.completed(this.response) : BeginResult.inProgress();
		}

		Entry withExpiry(Instant expiresAt) {
			return new Entry(this.fingerprint, this.token, this.completed, this.response, expiresAt);
		}

		Entry completed(StoredResponse response, Instant expiresAt) {
			return new Entry(this.fingerprint, this.token, true, response, expiresAt);
		}

	}

}
