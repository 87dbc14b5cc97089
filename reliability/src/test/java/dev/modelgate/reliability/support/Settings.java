package dev.modelgate.reliability.support;

import java.time.Duration;

import org.springframework.boot.convert.DurationStyle;

/**
 * The sizes of a run, from system properties that the build sets (see the module's pom: the short
 * version by default, {@code -Preliability-long} or {@code -Dreliability.keys=...} for more).
 */
public final class Settings {

	private Settings() {
	}

	/** Keys in a duplicate storm ({@code reliability.keys}, default 1000). */
	public static int keys() {
		return Integer.getInteger("reliability.keys", 1000);
	}

	/** Concurrent requests per key in a duplicate storm ({@code reliability.duplicates}, default 8). */
	public static int duplicates() {
		return Integer.getInteger("reliability.duplicates", 8);
	}

	/** Gateways sharing the store in a duplicate storm ({@code reliability.instances}, default 2). */
	public static int instances() {
		return Integer.getInteger("reliability.instances", 2);
	}

	/**
	 * How many keyed streams the stream scenario sends across two gateways
	 * ({@code reliability.streamRuns}, default 1; 10 in the long version).
	 */
	public static int streamRuns() {
		return Integer.getInteger("reliability.streamRuns", 1);
	}

	/**
	 * How long the store stays down in the outage scenarios ({@code reliability.outage}, default 10s:
	 * long enough for a client's reconnection back-off to show).
	 */
	public static Duration outage() {
		return duration("reliability.outage", Duration.ofSeconds(10));
	}

	private static Duration duration(String property, Duration fallback) {
		String value = System.getProperty(property);
		return (value != null) ? DurationStyle.detectAndParse(value) : fallback;
	}

}
