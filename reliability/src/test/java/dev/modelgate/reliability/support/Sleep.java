package dev.modelgate.reliability.support;

import java.time.Duration;

/** {@link Thread#sleep} without the checked exception, keeping the interrupt flag. */
public final class Sleep {

	private Sleep() {
	}

	public static void millis(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
	}

	public static void of(Duration duration) {
		millis(duration.toMillis());
	}

}
