package dev.modelgate.idempotency.core.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntConsumer;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Reads a UTF-8 body as one strict JSON value (RFC 8259) and writes it in the JSON Canonicalization
 * Scheme (RFC 8785): no white space, members sorted by the UTF-16 code units of their names,
 * strings with only the escapes RFC 8785 keeps, numbers as ECMAScript writes the nearest double.
 *
 * <p>A body has no canonical form, and is compared as bytes, when it is not exactly one JSON value
 * in UTF-8 (a byte order mark, another encoding, a duplicate member name, an unpaired surrogate),
 * when it nests deeper than {@value #MAX_DEPTH}, or when it keeps a number whose value is not the
 * value of the text RFC 8785 writes for it ({@code 9007199254740993}, {@code 0.10000000000000000001},
 * {@code 1e400}): two different requests would otherwise share a fingerprint.
 *
 * <p>The tree is made of {@link TreeMap} (members by name), {@link List}, {@link Text} (a string
 * left in the body), {@link String} (the canonical text of a number, {@code true}, {@code false}
 * or {@code null}) and {@link #INEXACT}. Reading and writing recurse at most {@value #MAX_DEPTH} deep and take time
 * linear in the body's length.
 */
final class CanonicalJson {

	static final int MAX_DEPTH = 500;

	private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?");

	/**
	 * A number whose RFC 8785 text would have another value: a tree that keeps one has no canonical
	 * form, but it may be left out by an ignored field.
	 */
	static final Object INEXACT = new Object();

	private static final BigDecimal TWO = BigDecimal.valueOf(2);

	private static final NoCanonicalForm NO_CANONICAL_FORM = new NoCanonicalForm();

	private static final IntConsumer SKIP = (codePoint) -> {
	};

	private final ByteChunks body;

	private int position;

	private int depth;

	private CanonicalJson(ByteChunks body) {
		this.body = body;
	}

	/**
	 * Reads a body as one JSON value.
	 * @return the value, which may hold {@link #INEXACT} numbers, or {@code null} when the body is not
	 * exactly one JSON value in UTF-8 (an empty body included) or nests too deep
	 */
	static @Nullable Object read(ByteChunks body) {
		CanonicalJson reader = new CanonicalJson(body);
		try {
			Object value = reader.value(reader.skipWhiteSpace());
			return (reader.skipWhiteSpace() < 0) ? value : null;
		}
		catch (NoCanonicalForm ex) {
			return null;
		}
	}

	/** {@return whether a tree has a canonical form: no {@link #INEXACT} number in it} */
	static boolean isExact(Object node) {
		Iterable<?> children = (node instanceof Map<?, ?> object) ? object.values()
				: (node instanceof List<?> array) ? array : List.of();
		for (Object child : children) {
			if (!isExact(child)) {
				return false;
			}
		}
		return node != INEXACT;
	}

	/** Writes a tree read by {@link #read}, and {@link #isExact exact}, as RFC 8785 text in UTF-8. */
	static void write(Object node, Output out) {
		if (node instanceof Map<?, ?> object) {
			out.write('{');
			String separator = "";
			for (Map.Entry<?, ?> member : object.entrySet()) {
				ascii(separator, out);
				separator = ",";
				out.write('"');
				((String) member.getKey()).codePoints().forEach((codePoint) -> character(codePoint, out));
				ascii("\":", out);
				write(member.getValue(), out);
			}
			out.write('}');
		}
		else if (node instanceof List<?> array) {
			out.write('[');
			for (int i = 0; i < array.size(); i++) {
				ascii((i == 0) ? "" : ",", out);
				write(array.get(i), out);
			}
			out.write(']');
		}
		else if (node instanceof Text text) {
			out.write('"');
			write(text, out);
			out.write('"');
		}
		else {
			ascii((String) node, out);
		}
	}

	/**
	 * Writes a string value: its bytes in the body as they are, but for its escapes (read and valid,
	 * its UTF-8 is already what RFC 8785 writes).
	 */
	private static void write(Text text, Output out) {
		ByteChunks body = text.body();
		int at = text.start();
		while (true) {
			int plain = body.skipPlainText(at, body.length());
			out.write(body, at, plain - at);
			int c = body.at(plain);
			if (c == '"') {
				return;
			}
			if (c == '\\') {
				at = escape(body, plain + 1, (codePoint) -> character(codePoint, out));
			}
			else {
				at = utf8(body, plain + 1, c, SKIP);
				out.write(body, plain, at - plain);
			}
		}
	}

	private Object value(int first) {
		switch (first) {
			case '{':
				return object();
			case '[':
				return array();
			case '"':
				Text text = new Text(this.body, this.position);
				this.position = string(this.body, this.position, SKIP);
				return text;
			case 't':
				return literal("true");
			case 'f':
				return literal("false");
			case 'n':
				return literal("null");
			default:
				return number(first);
		}
	}

	private Map<String, Object> object() {
		enter();
		Map<String, Object> members = new TreeMap<>();
		int c = skipWhiteSpace();
		while (c != '}') {
			if (!members.isEmpty()) {
				expect(c, ',');
				c = skipWhiteSpace();
			}
			expect(c, '"');
			StringBuilder name = new StringBuilder();
			this.position = string(this.body, this.position, name::appendCodePoint);
			expect(skipWhiteSpace(), ':');
			// Readers disagree about which of two members with one name counts: no canonical form.
			if (members.put(name.toString(), value(skipWhiteSpace())) != null) {
				throw NO_CANONICAL_FORM;
			}
			c = skipWhiteSpace();
		}
		this.depth--;
		return members;
	}

	private List<Object> array() {
		enter();
		List<Object> elements = new ArrayList<>();
		int c = skipWhiteSpace();
		while (c != ']') {
			if (!elements.isEmpty()) {
				expect(c, ',');
				c = skipWhiteSpace();
			}
			elements.add(value(c));
			c = skipWhiteSpace();
		}
		this.depth--;
		return elements;
	}

	private void enter() {
		if (++this.depth > MAX_DEPTH) {
			throw NO_CANONICAL_FORM;
		}
	}

	private String literal(String word) {
		for (int i = 1; i < word.length(); i++) {
			expect(next(), word.charAt(i));
		}
		return word;
	}

	/**
	 * Reads a number whose first character has been read, and returns its RFC 8785 text, or
	 * {@link #INEXACT} when that text would not have the number's value.
	 */
	private Object number(int first) {
		StringBuilder text = new StringBuilder().append((char) first);
		while ("0123456789.eE+-".indexOf(peek()) >= 0) {
			text.append((char) next());
		}
		if (!NUMBER.matcher(text).matches()) {
			throw NO_CANONICAL_FORM;
		}
		BigDecimal decimal;
		try {
			// No double needs 1,000 characters, and BigDecimal reads longer numbers in quadratic time.
			decimal = (text.length() <= 1000) ? new BigDecimal(text.toString()).stripTrailingZeros() : null;
		}
		catch (NumberFormatException | ArithmeticException ex) {
			// An exponent beyond int: no double but 0 or infinity.
			decimal = null;
		}
		if (decimal == null || decimal.signum() == 0) {
			return (decimal == null) ? INEXACT : "0";
		}
		String digits = decimal.unscaledValue().abs().toString();
		// The value is 0.digits × 10^point, as ECMAScript's Number::toString counts.
		long point = (long) digits.length() - decimal.scale();
		if (!isShortest(decimal.abs(), digits.length(), point)) {
			return INEXACT;
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

	/**
	 * Reads a string from after its opening quote, giving each code point to {@code out}.
	 * @return the position after its closing quote
	 */
	private static int string(ByteChunks body, int start, IntConsumer out) {
		int end = body.length();
		int at = start;
		while (true) {
			int plain = body.skipPlainText(at, end);
			for (; at < plain && out != SKIP; at++) {
				out.accept(body.at(at));
			}
			at = plain;
			if (at == end) {
				throw NO_CANONICAL_FORM;
			}
			int c = body.at(at++);
			if (c == '"') {
				return at;
			}
			if (c == '\\') {
				at = escape(body, at, out);
			}
			else if (c < 0x20) {
				throw NO_CANONICAL_FORM;
			}
			else {
				at = utf8(body, at, c, out);
			}
		}
	}

	/** Reads an escape whose backslash has been read; a surrogate must be the first of a pair. */
	private static int escape(ByteChunks body, int start, IntConsumer out) {
		int c = at(body, start);
		int simple = "\"\\/bfnrt".indexOf(c);
		if (simple >= 0) {
			out.accept("\"\\/\b\f\n\r\t".charAt(simple));
			return start + 1;
		}
		expect(c, 'u');
		int unit = hex(body, start + 1);
		if (!Character.isSurrogate((char) unit)) {
			out.accept(unit);
			return start + 5;
		}
		expect(at(body, start + 5), '\\');
		expect(at(body, start + 6), 'u');
		int low = hex(body, start + 7);
		if (!Character.isHighSurrogate((char) unit) || !Character.isLowSurrogate((char) low)) {
			throw NO_CANONICAL_FORM;
		}
		out.accept(Character.toCodePoint((char) unit, (char) low));
		return start + 11;
	}

	private static int hex(ByteChunks body, int start) {
		int value = 0;
		for (int i = start; i < start + 4; i++) {
			int digit = Character.digit(at(body, i), 16);
			if (digit < 0) {
				throw NO_CANONICAL_FORM;
			}
			value = (value << 4) | digit;
		}
		return value;
	}

	/**
	 * Reads a UTF-8 sequence whose first byte has been read; only a well-formed one (Unicode table 3-7:
	 * shortest form, no surrogate, at most U+10FFFF).
	 */
	private static int utf8(ByteChunks body, int start, int first, IntConsumer out) {
		int length;
		int low = 0x80;
		int high = 0xBF;
		if (first >= 0xC2 && first <= 0xDF) {
			length = 1;
		}
		else if (first >= 0xE0 && first <= 0xEF) {
			length = 2;
			low = (first == 0xE0) ? 0xA0 : low;
			high = (first == 0xED) ? 0x9F : high;
		}
		else if (first >= 0xF0 && first <= 0xF4) {
			length = 3;
			low = (first == 0xF0) ? 0x90 : low;
			high = (first == 0xF4) ? 0x8F : high;
		}
		else {
			throw NO_CANONICAL_FORM;
		}
		int codePoint = first & (0x3F >> length);
		for (int i = start; i < start + length; i++) {
			int continuation = at(body, i);
			if (continuation < low || continuation > high) {
				throw NO_CANONICAL_FORM;
			}
			codePoint = (codePoint << 6) | (continuation & 0x3F);
			low = 0x80;
			high = 0xBF;
		}
		out.accept(codePoint);
		return start + length;
	}

	/** Writes a code point of a string as RFC 8785 does: UTF-8, escaping only {@code "}, {@code \} and controls. */
	private static void character(int codePoint, Output out) {
		if (codePoint < 0x80) {
			int simple = "\"\\\b\f\n\r\t".indexOf(codePoint);
			if (simple >= 0) {
				out.write('\\');
				out.write("\"\\bfnrt".charAt(simple));
			}
			else if (codePoint < 0x20) {
				ascii(String.format("\\u%04x", codePoint), out);
			}
			else {
				out.write(codePoint);
			}
		}
		else {
			for (byte b : Character.toString(codePoint).getBytes(StandardCharsets.UTF_8)) {
				out.write(b);
			}
		}
	}

	private static void ascii(String text, Output out) {
		for (int i = 0; i < text.length(); i++) {
			out.write(text.charAt(i));
		}
	}

	private static void expect(int c, char expected) {
		if (c != expected) {
			throw NO_CANONICAL_FORM;
		}
	}

	/** The byte at {@code index}, or -1 past the end. */
	private static int at(ByteChunks body, int index) {
		return (index < body.length()) ? body.at(index) : -1;
	}

	private int skipWhiteSpace() {
		int c;
		do {
			c = next();
		}
		while (c == ' ' || c == '\t' || c == '\n' || c == '\r');
		return c;
	}

	private int next() {
		int c = peek();
		this.position++;
		return c;
	}

	private int peek() {
		return at(this.body, this.position);
	}

	/**
	 * A string value where it is in the body, from after its opening quote: a long one (an image in
	 * base64) is not copied.
	 */
	record Text(ByteChunks body, int start) {
	}

	/** Where canonical text goes. */
	interface Output {

		void write(int b);

		/** Writes {@code length} bytes of the body from {@code start}, as they are. */
		void write(ByteChunks body, int start, int length);

	}

	/** The body has no canonical form; thrown without a stack trace, and caught in {@link #read}. */
	private static final class NoCanonicalForm extends RuntimeException {

		NoCanonicalForm() {
			super(null, null, false, false);
		}

	}

}
