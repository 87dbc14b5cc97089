package dev.modelgate.idempotency.web;

import java.time.Duration;

/**
 * Limits of recorded Server-Sent Events streams.
 *
 * @param maxEvents the most events recorded per stream; past it the stream is delivered but not
 * recorded, the key stays spent and retries get 410
 * @param maxBytes the most bytes of events recorded per stream, with the same consequence
 * @param maxDuration how long a stream is recorded (and, once its client went away, kept running);
 * past it recording stops as past a size limit
 * @param pollInterval how often a duplicate attached to a live stream asks the store for new events
 * @param headWait how long a duplicate that asks for {@code text/event-stream} waits for a running
 * request's stream to begin (a model that thinks before its first token) before it is answered 409;
 * zero answers 409 at once
 * @param maxFollowers how many duplicates one instance lets follow one live stream at once; the next
 * is answered 409 with {@code Retry-After} until one leaves
 */
public record StreamSettings(int maxEvents, long maxBytes, Duration maxDuration, Duration pollInterval,
		Duration headWait, int maxFollowers) {

	/** How long a duplicate waits for a running request's stream to begin, unless set: 30 seconds. */
	public static final Duration DEFAULT_HEAD_WAIT = Duration.ofSeconds(30);

	/** How many duplicates follow one live stream on one instance, unless set: 100. */
	public static final int DEFAULT_MAX_FOLLOWERS = 100;

	public StreamSettings {
		if (maxFollowers < 1) {
			throw new IllegalArgumentException("maxFollowers must be at least 1, was " + maxFollowers);
		}
	}

	/**
	 * Settings that let {@link #DEFAULT_MAX_FOLLOWERS} duplicates follow a live stream.
	 * @param maxEvents the most events recorded per stream
	 * @param maxBytes the most bytes of events recorded per stream
	 * @param maxDuration how long a stream is recorded
	 * @param pollInterval how often a duplicate attached to a live stream asks the store for new events
	 * @param headWait how long a duplicate waits for a running request's stream to begin
	 */
	public StreamSettings(int maxEvents, long maxBytes, Duration maxDuration, Duration pollInterval,
			Duration headWait) {
		this(maxEvents, maxBytes, maxDuration, pollInterval, headWait, DEFAULT_MAX_FOLLOWERS);
	}

	/**
	 * Settings under which a duplicate waits {@link #DEFAULT_HEAD_WAIT} for a stream to begin.
	 * @param maxEvents the most events recorded per stream
	 * @param maxBytes the most bytes of events recorded per stream
	 * @param maxDuration how long a stream is recorded
	 * @param pollInterval how often a duplicate attached to a live stream asks the store for new events
	 */
	public StreamSettings(int maxEvents, long maxBytes, Duration maxDuration, Duration pollInterval) {
		this(maxEvents, maxBytes, maxDuration, pollInterval, DEFAULT_HEAD_WAIT);
	}

	/**
	 * 10,000 events, 8 MiB, 10 minutes, polled every 100 ms, 30 seconds for a stream to begin, 100
	 * followers per live stream.
	 */
	public static final StreamSettings DEFAULTS = new StreamSettings(10_000, 8L * 1024 * 1024, Duration.ofMinutes(10),
			Duration.ofMillis(100));

	/** How many events one store read returns at most. */
	public static final int READ_BATCH = 500;

}
