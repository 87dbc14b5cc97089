package dev.modelgate.idempotency.web.internal;

import java.time.Duration;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.web.StreamSettings;

/**
 * The clock of a duplicate that asks for {@code text/event-stream} and finds its running request's
 * stream not begun yet: it pauses and asks again until {@link StreamSettings#headWait()} has passed
 * since its first try. One per request.
 */
final class StreamHeadWait {

	private long deadline;

	/**
	 * {@return the next pause before asking again, or {@code null} when the client takes no stream or
	 * its wait is over}
	 * @param accept the request's {@code Accept} values, joined, or {@code null}
	 * @param streams the stream settings
	 * @param started run once, when a wait longer than zero begins
	 */
	@Nullable Duration nextPause(@Nullable String accept, StreamSettings streams, Runnable started) {
		if (accept == null || !accept.toLowerCase(Locale.ROOT).contains("text/event-stream")) {
			return null;
		}
		long now = System.nanoTime();
		if (this.deadline == 0) {
			this.deadline = now + streams.headWait().toNanos();
			if (!streams.headWait().isZero() && !streams.headWait().isNegative()) {
				started.run();
			}
		}
		long remaining = this.deadline - now;
		return (remaining > 0) ? Duration.ofNanos(Math.min(streams.pollInterval().toNanos(), remaining)) : null;
	}

}
