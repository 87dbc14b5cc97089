package dev.modelgate.idempotency.core;

import java.time.Duration;

/**
 * How a caller that waits for a running duplicate asks {@code begin} again: first after 20 ms, then
 * twice as long each time, at most every 500 ms, and never past its deadline. Both coordinators poll
 * this way.
 */
final class BeginPolling {

	static final Duration FIRST_PAUSE = Duration.ofMillis(20);

	private static final Duration LONGEST_PAUSE = Duration.ofMillis(500);

	private BeginPolling() {
	}

	/** {@return the pause after {@code pause}} */
	static Duration next(Duration pause) {
		return (pause.compareTo(LONGEST_PAUSE) < 0) ? pause.multipliedBy(2) : LONGEST_PAUSE;
	}

	/** {@return whether {@code result} ends the polling: anything but a duplicate in progress, or no time left} */
	static boolean isFinal(BeginResult result, long remainingNanos) {
		return result.outcome() != BeginResult.Outcome.IN_PROGRESS || remainingNanos <= 0;
	}

}
