package dev.modelgate.idempotency.core.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

import org.jspecify.annotations.Nullable;

/**
 * The RFC 8785 text of a JSON number: the text ECMAScript writes for the double nearest to it, when
 * that text has the number's own value.
 */
final class CanonicalNumber {

	private static final BigDecimal TWO = BigDecimal.valueOf(2);

	private CanonicalNumber() {
	}

	/**
	 * The RFC 8785 text of a number in JSON's syntax.
	 * @return the text, or {@code null} when that text would not have the number's value
	 */
	static @Nullable String text(CharSequence number) {
		BigDecimal decimal;
		try {
			// No double needs 1,000 characters, and BigDecimal reads longer numbers in quadratic time.
			decimal = (number.length() <= 1000) ? new BigDecimal(number.toString()).stripTrailingZeros() : null;
		}
		catch (NumberFormatException | ArithmeticException ex) {
			// An exponent beyond int: no double but 0 or infinity.
			decimal = null;
		}
		if (decimal == null || decimal.signum() == 0) {
			return (decimal == null) ? null : "0";
		}
		String digits = decimal.unscaledValue().abs().toString();
		// The value is 0.digits × 10^point, as ECMAScript's Number::toString counts.
		long point = (long) digits.length() - decimal.scale();
		if (!isShortest(decimal.abs(), digits.length(), point)) {
			return null;
		}
		return ((decimal.signum() < 0) ? "-" : "") + ecmaScript(digits, (int) point);
	}

	/**
	 * Whether a positive decimal (without trailing zeros) is the one ECMAScript writes for the
	 * double nearest to it: of the decimals with the fewest digits that round to that double, the
	 * nearest to it.
	 */
	private static boolean isShortest(BigDecimal decimal, int digits, long point) {
		if (digits > 17 || point < -400 || point > 400) {
			return false;
		}
		if (digits <= 15 && point > -307 && point < 309) {
			// 53 bits tell apart any two decimals of 15 digits (DBL_DIG), so no other decimal of 15
			// digits or fewer rounds to this one's double: it is the shortest, and the only one that short.
			return true;
		}
		double value = decimal.doubleValue();
		if (value == 0 || Double.isInfinite(value)) {
			return false;
		}
		BigDecimal unit = BigDecimal.ONE.scaleByPowerOfTen(-decimal.scale());
		// A shorter decimal rounds to the value only if the nearest ones below and above this one do
		// (the decimals that round to it are an interval, and this one is in it).
		BigDecimal shorterBelow = decimal.setScale(decimal.scale() - 1, RoundingMode.FLOOR);
		BigDecimal shorterAbove = shorterBelow.add(unit.movePointRight(1));
		if (digits > 1 && (roundsTo(shorterBelow, value) || roundsTo(shorterAbove, value))) {
			return false;
		}
		// A decimal as long lies a step away or more (below 10^n, a tenth of the usual step): none is
		// nearer if this one is nearer than half a step; else a nearer one is one of its neighbours.
		BigDecimal step = decimal.unscaledValue().equals(BigInteger.ONE) ? unit.movePointLeft(1) : unit;
		if (decimal.subtract(new BigDecimal(value)).abs().multiply(TWO).compareTo(step) < 0) {
			return true;
		}
		return isNearer(decimal, decimal.subtract(step), value) && isNearer(decimal, decimal.add(unit), value);
	}

	/**
	 * Whether the decimal is nearer the value than its neighbour, or as near and even, or the
	 * neighbour does not round to the value.
	 */
	private static boolean isNearer(BigDecimal decimal, BigDecimal neighbour, double value) {
		if (!roundsTo(neighbour, value)) {
			return true;
		}
		BigDecimal exact = new BigDecimal(value);
		int nearer = decimal.subtract(exact).abs().compareTo(neighbour.subtract(exact).abs());
		return nearer < 0 || (nearer == 0 && !decimal.unscaledValue().testBit(0));
	}

	private static boolean roundsTo(BigDecimal decimal, double value) {
		return decimal.doubleValue() == value;
	}

	/** ECMAScript's text of 0.digits × 10^point, the digits without leading or trailing zeros. */
	private static String ecmaScript(String digits, int point) {
		int length = digits.length();
		if (length <= point && point <= 21) {
			return digits + "0".repeat(point - length);
		}
		if (0 < point && point <= 21) {
			return digits.substring(0, point) + "." + digits.substring(point);
		}
		if (-6 < point && point <= 0) {
			return "0." + "0".repeat(-point) + digits;
		}
		String exponent = ((point > 0) ? "e+" : "e-") + Math.abs(point - 1);
		return (length == 1) ? digits + exponent : digits.charAt(0) + "." + digits.substring(1) + exponent;
	}

}
