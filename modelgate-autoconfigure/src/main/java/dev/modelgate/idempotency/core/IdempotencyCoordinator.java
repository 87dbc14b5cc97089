package dev.modelgate.idempotency.core;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Drives the state machine for one attempt: asks the store to {@code begin}, waits for a running
 * duplicate when asked to, and hands the caller a {@link Lease} that keeps itself alive until the
 * caller completes or releases it. Knows nothing of HTTP, so the web filter and programmatic callers
 * share it.
 */
public class IdempotencyCoordinator {

	private static final Duration FIRST_POLL = Duration.ofMillis(20);

	private static final Duration LONGEST_POLL = Duration.ofMillis(500);

	private static final SecureRandom RANDOM = new SecureRandom();

	private final IdempotencyStore store;

	private final ScheduledExecutorService heartbeats;

	/**
	 * @param store where records live
	 * @param heartbeats runs lease renewals while work is in progress
	 */
	public IdempotencyCoordinator(IdempotencyStore store, ScheduledExecutorService heartbeats) {
		this.store = store;
		this.heartbeats = heartbeats;
	}

	/**
	 * Begins an attempt.
	 * @param scope the scope hash
	 * @param fingerprint the request fingerprint
	 * @param leaseTtl how long the lease lasts between heartbeats
	 * @param waitTimeout how long to wait for a running duplicate to finish; zero answers
	 * {@code IN_PROGRESS} at once
	 * @return the outcome; when {@code ACQUIRED} the caller must close the attempt's lease
	 * @throws IdempotencyStoreException when the store cannot be asked
	 */
	public Attempt begin(String scope, String fingerprint, Duration leaseTtl, Duration waitTimeout) {
		String token = newToken();
		long deadline = System.nanoTime() + waitTimeout.toNanos();
		Duration pause = FIRST_POLL;
		boolean waited = false;
		while (true) {
			BeginResult result = this.store.begin(scope, fingerprint, token, leaseTtl);
			if (result.outcome() == BeginResult.Outcome.ACQUIRED) {
				return new Attempt(result, waited, new Lease(this.store, this.heartbeats, scope, token, leaseTtl));
			}
			long remaining = deadline - System.nanoTime();
			if (result.outcome() != BeginResult.Outcome.IN_PROGRESS || remaining <= 0) {
				return new Attempt(result, waited, null);
			}
			waited = true;
			if (!sleep(Math.min(pause.toNanos(), remaining))) {
				return new Attempt(result, true, null);
			}
			pause = (pause.compareTo(LONGEST_POLL) < 0) ? pause.multipliedBy(2) : LONGEST_POLL;
		}
	}

	private static boolean sleep(long nanos) {
		try {
			Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/** A random 128-bit token, unique per acquisition. */
	static String newToken() {
		byte[] bytes = new byte[16];
		RANDOM.nextBytes(bytes);
		return HexFormat.of().formatHex(bytes);
	}

	/**
	 * The answer to {@link #begin}.
	 *
	 * @param result what the store answered last
	 * @param waited whether the caller waited for a running duplicate
	 * @param lease the held lease when {@code ACQUIRED}, else {@code null}
	 */
	public record Attempt(BeginResult result, boolean waited, Lease lease) {

		public BeginResult.Outcome outcome() {
			return this.result.outcome();
		}

	}

}
