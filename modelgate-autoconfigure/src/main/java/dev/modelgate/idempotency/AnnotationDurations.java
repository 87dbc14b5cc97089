package dev.modelgate.idempotency;

import java.time.Duration;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.StringUtils;

/**
 * Reads the duration attributes of {@link Idempotent} and {@link IdempotentOperation} ({@code "30s"},
 * {@code "24h"}, {@code "PT5M"}), so that both annotations accept and refuse the same values.
 */
public final class AnnotationDurations {

	private AnnotationDurations() {
	}

	/**
	 * @param value the attribute's value
	 * @param attribute the attribute's name, for the error message
	 * @return the duration, or {@code null} when the attribute is empty (use the global setting)
	 * @throws IllegalArgumentException when the value is not a positive duration
	 */
	public static Duration parse(String value, String attribute) {
		if (!StringUtils.hasText(value)) {
			return null;
		}
		Duration duration;
		try {
			duration = DurationStyle.detectAndParse(value);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(attribute + " '" + value + "' is not a duration such as 30s or 24h");
		}
		if (duration.isNegative() || duration.isZero()) {
			throw new IllegalArgumentException(attribute + " must be positive, was '" + value + "'");
		}
		return duration;
	}

}
