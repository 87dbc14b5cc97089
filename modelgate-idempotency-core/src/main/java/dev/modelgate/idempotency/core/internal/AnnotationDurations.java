package dev.modelgate.idempotency.core.internal;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the duration attributes of {@link dev.modelgate.idempotency.Idempotent @Idempotent} and
 * {@link dev.modelgate.idempotency.IdempotentOperation @IdempotentOperation} ({@code "30s"},
 * {@code "24h"}, {@code "PT5M"}), so that both annotations accept and refuse the same values.
 */
public final class AnnotationDurations {

	private static final Pattern SIMPLE = Pattern.compile("^([+-]?\\d+)([a-zA-Z]{0,2})$");

	private static final Pattern ISO_8601 = Pattern.compile("^[+-]?[pP].*$");

	private static final String ALLOWED = "write a positive duration such as 30s, 24h or PT5M, "
			+ "or leave it empty for the global setting";

	private AnnotationDurations() {
	}

	/**
	 * @param value the attribute's value
	 * @param attribute the attribute's name, for the error message
	 * @return the duration, or {@code null} when the attribute is empty (use the global setting)
	 * @throws IllegalArgumentException when the value is not a positive duration
	 */
	public static Duration parse(String value, String attribute) {
		return parse(value, attribute, false);
	}

	/**
	 * As {@link #parse(String, String)}, for a setting that zero turns off.
	 * @param value the attribute's value
	 * @param attribute the attribute's name, for the error message
	 * @return the duration, zero included, or {@code null} when the attribute is empty
	 * @throws IllegalArgumentException when the value is not a duration or is negative
	 */
	public static Duration parseZeroOrMore(String value, String attribute) {
		return parse(value, attribute, true);
	}

	private static Duration parse(String value, String attribute, boolean zeroAllowed) {
		if (value == null || value.isBlank()) {
			return null;
		}
		Duration duration;
		try {
			duration = detectAndParse(value.trim());
		}
		catch (IllegalArgumentException | DateTimeParseException | ArithmeticException ex) {
			throw new IllegalArgumentException(attribute + " '" + value + "' is not a duration: " + ALLOWED);
		}
		if (duration.isNegative() || (duration.isZero() && !zeroAllowed)) {
			throw new IllegalArgumentException(attribute + " must be positive, was '" + value + "': " + ALLOWED);
		}
		return duration;
	}

	/**
	 * The two forms Spring Boot accepts for {@code Duration} properties, so that an annotation reads a
	 * value the way the matching property would: a whole number with an optional unit ({@code ns},
	 * {@code us}, {@code ms}, {@code s}, {@code m}, {@code h}, {@code d}; milliseconds without one), or
	 * ISO-8601 ({@code PT5M}).
	 */
	private static Duration detectAndParse(String value) {
		if (ISO_8601.matcher(value).matches()) {
			return Duration.parse(value);
		}
		Matcher simple = SIMPLE.matcher(value);
		if (!simple.matches()) {
			throw new IllegalArgumentException(value);
		}
		long amount = Long.parseLong(simple.group(1));
		return Duration.of(amount, unit(simple.group(2).toLowerCase(Locale.ROOT)));
	}

	private static ChronoUnit unit(String suffix) {
		return switch (suffix) {
			case "ns" -> ChronoUnit.NANOS;
			case "us" -> ChronoUnit.MICROS;
			case "", "ms" -> ChronoUnit.MILLIS;
			case "s" -> ChronoUnit.SECONDS;
			case "m" -> ChronoUnit.MINUTES;
			case "h" -> ChronoUnit.HOURS;
			case "d" -> ChronoUnit.DAYS;
			default -> throw new IllegalArgumentException(suffix);
		};
	}

}
