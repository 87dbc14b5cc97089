package dev.modelgate.idempotency.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
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
				return Entry.inProgress(fingerprint, token, now, now.plus(leaseTtl));
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

	@Override
	public boolean release(String scope, String token) {
		return transition(scope, token, (entry, now) -> null);
	}

	@Override
	public Optional<IdempotencyRecord> find(String scope) {
		Instant now = this.clock.instant();
		Entry entry = this.records.get(scope);
		if (entry == null || entry.isExpired(now)) {
			return Optional.empty();
		}
		return Optional.of(entry.toRecord(scope, now));
	}

	@Override
	public boolean delete(String scope) {
		Instant now = this.clock.instant();
		boolean[] deleted = { false };
		this.records.computeIfPresent(scope, (key, entry) -> {
			deleted[0] = !entry.isExpired(now);
			return null;
		});
		return deleted[0];
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
			Instant createdAt, Instant expiresAt) {

		static Entry inProgress(String fingerprint, String token, Instant createdAt, Instant expiresAt) {
			return new Entry(fingerprint, token, false, null, createdAt, expiresAt);
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
			return new Entry(this.fingerprint, this.token, this.completed, this.response, this.createdAt, expiresAt);
		}

		Entry completed(StoredResponse response, Instant expiresAt) {
			return new Entry(this.fingerprint, this.token, true, response, this.createdAt, expiresAt);
		}

		IdempotencyRecord toRecord(String scope, Instant now) {
			IdempotencyRecord.State state = this.completed ? IdempotencyRecord.State.COMPLETED
					: IdempotencyRecord.State.IN_PROGRESS;
			Integer status = (this.response != null) ? this.response.status() : null;
			Long size = (this.response != null) ? (long) this.response.body().length : null;
			return new IdempotencyRecord(scope, state, this.createdAt, this.expiresAt, now, status, size);
		}

	}

}
