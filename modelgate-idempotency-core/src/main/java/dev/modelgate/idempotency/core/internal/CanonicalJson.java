package dev.modelgate.idempotency.core.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

/**
 * Reads a request body as one strict JSON value (RFC 8259), with only the JDK.
 *
 * <p>Fingerprints stored before this reader existed were computed from Jackson 3.1 trees, so it
 * accepts exactly the bodies Jackson accepted with the settings used then (strict duplicate
 * detection, failing on trailing tokens, default stream read constraints) and reads them into the
 * same values, quirks included: the encoding is detected as Jackson detects it (UTF-8 with or
 * without BOM, UTF-16 and UTF-32), UTF-8 is decoded by Jackson's rules rather than the JDK's, and
 * numbers with a fraction or exponent are read as Jackson's FastDoubleParser reads them.
 *
 * <p>A value is returned as a tree of {@link TreeMap} (members sorted by name), {@link List},
 * {@link String}, {@link Utf8Span}, {@link BigDecimal}, {@link Boolean} and {@link #NULL}: a string
 * value whose bytes in a UTF-8 body are exactly the UTF-8 of its text is not copied out of the
 * body but left in place as a {@link Utf8Span}, which hashes as that text would. Reading never throws, does
 * not recurse, and takes time roughly linear in the length of the body.
 */
final class CanonicalJson {

	/** A JSON {@code null} in a tree, so that a map lookup returning {@code null} means "absent". */
	static final Object NULL = new Object();

	// Jackson 3.1's default StreamReadConstraints.
	private static final int MAX_DEPTH = 500;

	private static final int MAX_NUMBER_LENGTH = 1000;

	private static final int MAX_NAME_LENGTH = 50_000;

	private static final int MAX_STRING_LENGTH = 100_000_000;

	/** Characters Jackson's UTF-16 and UTF-32 parser asks its reader for at a time. */
	private static final int READ_BUFFER_LENGTH = 4000;

	private static final int[] HEX_VALUES = hexValues();

	private static final NotJson NOT_JSON = new NotJson();

	/** The decoded text of a UTF-16 or UTF-32 body, or {@code null} for UTF-8. */
	private final char @Nullable [] text;

	/** A UTF-8 body, read in place (each byte one char, decoded only inside strings), or {@code null}. */
	private final @Nullable ByteChunks bytes;

	/** Whether each char of the text is one byte of UTF-8, decoded only inside strings. */
	private final boolean utf8;

	/** Where the text ends: positions run from where it starts to here. */
	private final int end;

	private int position;

	private int depth;

	private CanonicalJson(char[] text) {
		this.text = text;
		this.bytes = null;
		this.utf8 = false;
		this.end = text.length;
	}

	private CanonicalJson(ByteChunks bytes, int start, int end) {
		this.text = null;
		this.bytes = bytes;
		this.utf8 = true;
		this.position = start;
		this.end = end;
	}

	/** The char at {@code index}: a UTF-8 byte widened, or a decoded char. */
	private char at(int index) {
		return (this.bytes != null) ? (char) this.bytes.at(index) : this.text[index];
	}

	/** The chars from {@code start}, {@code length} of them, as a string. */
	private String string(int start, int length) {
		return (this.bytes != null) ? this.bytes.latin1(start, length) : new String(this.text, start, length);
	}

	private StringBuilder append(StringBuilder target, int start, int length) {
		if (this.bytes != null) {
			for (int i = start; i < start + length; i++) {
				target.append((char) this.bytes.at(i));
			}
			return target;
		}
		return target.append(this.text, start, length);
	}

	/**
	 * Reads a body as one JSON value.
	 * @return the value, or {@code null} when the body is not exactly one JSON value (empty and
	 * blank bodies included)
	 */
	static Object read(ByteChunks body) {
		try {
			CanonicalJson reader = reader(body, 0, body.length());
			return (reader != null) ? reader.readDocument() : null;
		}
		catch (NotJson ex) {
			return null;
		}
	}

	/** Detects the encoding from the first bytes, as Jackson's ByteSourceJsonBootstrapper does. */
	private static CanonicalJson reader(ByteChunks buffer, int start, int end) {
		if (end - start >= 4) {
			int quad = (buffer.at(start) << 24) | (buffer.at(start + 1) << 16) | (buffer.at(start + 2) << 8)
					| buffer.at(start + 3);
			switch (quad) {
				case 0x0000FEFF:
					return utf32(buffer, start + 4, end, true);
				case 0xFFFE0000:
					return utf32(buffer, start + 4, end, false);
				case 0x0000FFFE, 0xFEFF0000:
					return null;
				default:
			}
			if ((quad >>> 16) == 0xFEFF) {
				return utf16(buffer, start + 2, end, StandardCharsets.UTF_16BE);
			}
			if ((quad >>> 16) == 0xFFFE) {
				return utf16(buffer, start + 2, end, StandardCharsets.UTF_16LE);
			}
			if ((quad >>> 8) == 0xEFBBBF) {
				return utf8(buffer, start + 3, end);
			}
			if ((quad >> 8) == 0) {
				return utf32(buffer, start, end, true);
			}
			if ((quad & 0x00FFFFFF) == 0) {
				return utf32(buffer, start, end, false);
			}
			if ((quad & ~0x00FF0000) == 0 || (quad & ~0x0000FF00) == 0) {
				// UCS-4 in byte order 3412 or 2143, which Jackson refuses.
				return null;
			}
		}
		if (end - start >= 2) {
			if (buffer.at(start) == 0) {
				return utf16(buffer, start, end, StandardCharsets.UTF_16BE);
			}
			if (buffer.at(start + 1) == 0) {
				return utf16(buffer, start, end, StandardCharsets.UTF_16LE);
			}
		}
		return utf8(buffer, start, end);
	}

	private static CanonicalJson utf8(ByteChunks buffer, int start, int end) {
		// Jackson decodes UTF-8 only inside strings, by rules of its own, and outside them any
		// non-ASCII byte is an error; reading each byte as a char keeps one parser for every encoding,
		// and reading the buffer in place keeps a large body from being copied into twice its size.
		return new CanonicalJson(buffer, start, end);
	}

	private static CanonicalJson utf16(ByteChunks buffer, int start, int end, Charset charset) {
		// The JDK decoder Jackson hands UTF-16 to, replacing malformed input with U+FFFD. A rare
		// encoding for a request body, so it is decoded from one copy rather than chunk by chunk.
		byte[] bytes = new byte[end - start];
		buffer.copyTo(start, bytes, 0, bytes.length);
		return new CanonicalJson(new String(bytes, charset).toCharArray());
	}

	/** Decodes UTF-32 as Jackson's UTF32Reader does, or returns {@code null} where it fails. */
	private static CanonicalJson utf32(ByteChunks buffer, int start, int end, boolean bigEndian) {
		if ((end - start) % 4 != 0) {
			return null;
		}
		char[] text = new char[(end - start) / 2];
		int length = 0;
		for (int i = start; i < end; i += 4) {
			int high = bigEndian ? (buffer.at(i) << 8) | buffer.at(i + 1) : (buffer.at(i + 3) << 8) | buffer.at(i + 2);
			int low = bigEndian ? (buffer.at(i + 2) << 8) | buffer.at(i + 3) : (buffer.at(i + 1) << 8) | buffer.at(i);
			if (high == 0) {
				text[length++] = (char) low;
				continue;
			}
			if (high > 0x10) {
				return null;
			}
			int offsetCodePoint = ((high - 1) << 16) | low;
			text[length++] = (char) (0xD800 + (offsetCodePoint >> 10));
			if (length % READ_BUFFER_LENGTH != 0) {
				text[length++] = (char) (0xDC00 | (offsetCodePoint & 0x3FF));
			}
			else if (low != 0) {
				// A pair split between two reads: UTF32Reader carries over the low 16 bits of the code
				// point instead of the low surrogate, and loses them when they are zero.
				text[length++] = (char) low;
			}
		}
		return new CanonicalJson(Arrays.copyOf(text, length));
	}

	private Object readDocument() {
		int first = skipWhiteSpace();
		if (first < 0) {
			return null;
		}
		Object value = readValue(first);
		if (skipWhiteSpace() >= 0) {
			throw NOT_JSON;
		}
		return value;
	}

	/** Reads the value starting with {@code first}, keeping open containers on a stack of its own. */
	private Object readValue(int first) {
		Container open = null;
		int c = first;
		while (true) {
			Object value;
			if (c == '{' || c == '[') {
				if (++this.depth > MAX_DEPTH) {
					throw NOT_JSON;
				}
				Container container = new Container(open, c == '{');
				c = skipWhiteSpace();
				if (c == container.closer) {
					this.depth--;
					value = container.value();
				}
				else {
					open = container;
					if (open.members != null) {
						c = readName(open, c);
					}
					continue;
				}
			}
			else {
				value = readScalar(c);
			}
			// Each value completes the container it is in, or is followed by a comma and the next one.
			while (true) {
				if (open == null) {
					return value;
				}
				open.add(value);
				c = skipWhiteSpace();
				if (c == ',') {
					c = skipWhiteSpace();
					if (open.members != null) {
						c = readName(open, c);
					}
					break;
				}
				if (c != open.closer) {
					throw NOT_JSON;
				}
				this.depth--;
				value = open.value();
				open = open.outer;
			}
		}
	}

	/** Reads a member name and its colon, returning the first character of the member's value. */
	private int readName(Container object, int c) {
		if (c != '"') {
			throw NOT_JSON;
		}
		object.name = readString(true);
		if (skipWhiteSpace() != ':') {
			throw NOT_JSON;
		}
		return skipWhiteSpace();
	}

	private Object readScalar(int c) {
		return switch (c) {
			case '"' -> readStringValue();
			case 't' -> readLiteral("rue", Boolean.TRUE);
			case 'f' -> readLiteral("alse", Boolean.FALSE);
			case 'n' -> readLiteral("ull", NULL);
			default -> readNumber(c);
		};
	}

	private Object readLiteral(String rest, Object value) {
		for (int i = 0; i < rest.length(); i++) {
			if (next() != rest.charAt(i)) {
				throw NOT_JSON;
			}
		}
		return value;
	}

	private BigDecimal readNumber(int first) {
		int start = this.position - 1;
		int c = (first == '-') ? next() : first;
		if (c < '0' || c > '9' || (c == '0' && isDigit(peek()))) {
			throw NOT_JSON;
		}
		int integerStart = this.position - 1;
		skipDigits();
		int integerLength = this.position - integerStart;
		int fractionStart = this.position;
		int fractionLength = 0;
		if (peek() == '.') {
			this.position++;
			fractionStart = this.position;
			fractionLength = skipDigits();
			if (fractionLength == 0) {
				throw NOT_JSON;
			}
		}
		if ((peek() | 0x20) != 'e') {
			if (fractionLength == 0) {
				if (integerLength > MAX_NUMBER_LENGTH) {
					throw NOT_JSON;
				}
				return new BigDecimal(string(start, this.position - start));
			}
			return decimal(first == '-', integerStart, integerLength, fractionStart, fractionLength, 0, 0);
		}
		this.position++;
		int sign = peek();
		if (sign == '-' || sign == '+') {
			this.position++;
		}
		int exponentStart = this.position;
		// FastDoubleParser stops accumulating once the exponent reaches Integer.MAX_VALUE, so a longer
		// one is read as the first value at or past that (0.1e2147483647999 is 1e2147483646).
		long exponent = 0;
		while (isDigit(peek())) {
			if (exponent < Integer.MAX_VALUE) {
				exponent = 10 * exponent + (at(this.position) - '0');
			}
			this.position++;
		}
		int exponentLength = this.position - exponentStart;
		if (exponentLength == 0) {
			throw NOT_JSON;
		}
		return decimal(first == '-', integerStart, integerLength, fractionStart, fractionLength,
				(sign == '-') ? -exponent : exponent, exponentLength);
	}

	/** The number FastDoubleParser makes of a number with a fraction or an exponent. */
	private BigDecimal decimal(boolean negative, int integerStart, int integerLength, int fractionStart,
			int fractionLength, long exponent, int exponentLength) {
		if (integerLength + fractionLength + exponentLength > MAX_NUMBER_LENGTH) {
			throw NOT_JSON;
		}
		long powerOfTen = exponent - fractionLength;
		if (powerOfTen <= Integer.MIN_VALUE || powerOfTen > Integer.MAX_VALUE) {
			throw NOT_JSON;
		}
		StringBuilder joined = append(new StringBuilder(integerLength + fractionLength), integerStart, integerLength);
		String digits = append(joined, fractionStart, fractionLength)
			.toString();
		BigInteger unscaled = new BigInteger(digits);
		return new BigDecimal(negative ? unscaled.negate() : unscaled, (int) -powerOfTen);
	}

	private int skipDigits() {
		int start = this.position;
		while (isDigit(peek())) {
			this.position++;
		}
		return this.position - start;
	}

	private static boolean isDigit(int c) {
		return c >= '0' && c <= '9';
	}

	/** Reads the rest of a string value whose opening quote has been read. */
	private Object readStringValue() {
		Utf8Span span = (this.bytes != null) ? readSpan(this.bytes) : null;
		return (span != null) ? span : readString(false);
	}

	/**
	 * Reads the rest of a string value whose text is its own bytes: no escape, no control character,
	 * and only well-formed UTF-8 (shortest form, no surrogate, at most U+10FFFF), which decodes and
	 * encodes back to the same bytes. Any other string is left where it started, for
	 * {@link #readString} to decode.
	 * @return the string in place, or {@code null} when it is not such a string
	 */
	private @Nullable Utf8Span readSpan(ByteChunks body) {
		int start = this.position;
		// Its length in chars, which is what Jackson limits in values.
		long chars = 0;
		while (this.position < this.end) {
			int plain = body.skipPlainText(this.position, this.end);
			chars += plain - this.position;
			this.position = plain;
			if (plain == this.end) {
				break;
			}
			int c = body.at(this.position);
			if (c == '"') {
				int length = this.position - start;
				this.position++;
				if (chars > MAX_STRING_LENGTH) {
					throw NOT_JSON;
				}
				return new Utf8Span(body, start, length);
			}
			// A backslash or a control character, or the first byte of a UTF-8 sequence.
			int length = (c < 0x80) ? 0 : wellFormedLength(body, c);
			if (length == 0) {
				break;
			}
			this.position += length;
			chars += (length == 4) ? 2 : 1;
		}
		this.position = start;
		return null;
	}

	/**
	 * The length of the well-formed UTF-8 sequence starting at the position with byte {@code first}
	 * (Unicode table 3-7), or 0 when it is not one.
	 */
	private int wellFormedLength(ByteChunks body, int first) {
		int length;
		int low = 0x80;
		int high = 0xBF;
		if (first >= 0xC2 && first <= 0xDF) {
			length = 2;
		}
		else if (first >= 0xE0 && first <= 0xEF) {
			length = 3;
			low = (first == 0xE0) ? 0xA0 : 0x80;
			high = (first == 0xED) ? 0x9F : 0xBF;
		}
		else if (first >= 0xF0 && first <= 0xF4) {
			length = 4;
			low = (first == 0xF0) ? 0x90 : 0x80;
			high = (first == 0xF4) ? 0x8F : 0xBF;
		}
		else {
			return 0;
		}
		if (this.position + length > this.end) {
			return 0;
		}
		for (int i = 1; i < length; i++) {
			int continuation = body.at(this.position + i);
			if (continuation < low || continuation > high) {
				return 0;
			}
			low = 0x80;
			high = 0xBF;
		}
		return length;
	}

	/**
	 * Reads the rest of a string whose opening quote has been read.
	 * @param name whether it is a member name, which Jackson reads with rules of its own
	 */
	private String readString(boolean name) {
		int start = this.position;
		while (this.position < this.end) {
			char c = at(this.position);
			if (c == '"') {
				String plain = string(start, this.position - start);
				this.position++;
				return withinLimit(plain, name, plain.length());
			}
			if (c == '\\' || c < 0x20 || (this.utf8 && c >= 0x80)) {
				break;
			}
			this.position++;
		}
		StringBuilder value = append(new StringBuilder(this.position - start + 16), start,
				this.position - start);
		// Jackson limits names read from UTF-8 in bytes, escapes counted as UTF-8, and all else in chars.
		int utf8Length = value.length();
		while (true) {
			int c = next();
			if (c == '"') {
				return withinLimit(value.toString(), name, (name && this.utf8) ? utf8Length : value.length());
			}
			if (c == '\\') {
				utf8Length += readEscape(value, name);
			}
			else if (c < 0x20) {
				throw NOT_JSON;
			}
			else if (this.utf8 && c >= 0x80) {
				utf8Length += readUtf8(c, value, name);
			}
			else {
				value.append((char) c);
				utf8Length++;
			}
		}
	}

	private static String withinLimit(String value, boolean name, int length) {
		if (length > (name ? MAX_NAME_LENGTH : MAX_STRING_LENGTH)) {
			throw NOT_JSON;
		}
		return value;
	}

	/**
	 * Reads an escape whose backslash has been read, appending what it stands for.
	 * @return the length of that in UTF-8
	 */
	private int readEscape(StringBuilder value, boolean name) {
		char c = readEscapedChar();
		if (!name || !this.utf8 || !Character.isSurrogate(c)) {
			// Jackson keeps lone surrogates in values, and in names read from UTF-16 or UTF-32.
			value.append(c);
			return (c < 0x80) ? 1 : (c < 0x800) ? 2 : 3;
		}
		if (Character.isLowSurrogate(c) || next() != '\\') {
			throw NOT_JSON;
		}
		char low = readEscapedChar();
		if (!Character.isLowSurrogate(low)) {
			throw NOT_JSON;
		}
		value.append(c).append(low);
		return 4;
	}

	private char readEscapedChar() {
		int c = next();
		switch (c) {
			case 'b':
				return '\b';
			case 't':
				return '\t';
			case 'n':
				return '\n';
			case 'f':
				return '\f';
			case 'r':
				return '\r';
			case '"', '/', '\\':
				return (char) c;
			case 'u':
				break;
			default:
				throw NOT_JSON;
		}
		int value = 0;
		for (int i = 0; i < 4; i++) {
			int digit = next();
			// Jackson looks hex digits up by their low byte, so in text decoded from UTF-16 or UTF-32
			// '\u0130' reads as the digit 0.
			int hex = (digit < 0) ? -1 : HEX_VALUES[digit & 0xFF];
			if (hex < 0) {
				throw NOT_JSON;
			}
			value = (value << 4) | hex;
		}
		return (char) value;
	}

	/**
	 * Decodes a UTF-8 sequence whose first byte has been read, as Jackson does: overlong forms and
	 * code points above U+10FFFF are accepted, encoded surrogates are not.
	 * @return the number of bytes read
	 */
	private int readUtf8(int first, StringBuilder value, boolean name) {
		int continuations;
		int codePoint;
		if ((first & 0xE0) == 0xC0) {
			continuations = 1;
			codePoint = first & 0x1F;
		}
		else if ((first & 0xF0) == 0xE0) {
			continuations = 2;
			codePoint = first & 0x0F;
		}
		else if ((first & 0xF8) == 0xF0) {
			continuations = 3;
			codePoint = first & 0x07;
		}
		else {
			throw NOT_JSON;
		}
		for (int i = 0; i < continuations; i++) {
			int continuation = next();
			if ((continuation & 0xC0) != 0x80) {
				throw NOT_JSON;
			}
			codePoint = (codePoint << 6) | (continuation & 0x3F);
		}
		if (continuations < 3) {
			if (continuations == 2 && codePoint >= 0xD800 && codePoint <= 0xDFFF) {
				throw NOT_JSON;
			}
			value.append((char) codePoint);
			return continuations + 1;
		}
		int offset = codePoint - 0x10000;
		// Jackson adds the high bits in names and ORs them in values: the same for every real code point,
		// not for an overlong form, whose offset is negative.
		value.append((char) (name ? 0xD800 + (offset >> 10) : 0xD800 | (offset >> 10)));
		value.append((char) (0xDC00 | (offset & 0x3FF)));
		return 4;
	}

	private int skipWhiteSpace() {
		while (this.position < this.end) {
			char c = at(this.position++);
			if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
				return c;
			}
		}
		return -1;
	}

	private int next() {
		return (this.position < this.end) ? at(this.position++) : -1;
	}

	private int peek() {
		return (this.position < this.end) ? at(this.position) : -1;
	}

	private static int[] hexValues() {
		int[] values = new int[256];
		Arrays.fill(values, -1);
		for (int i = 0; i < 10; i++) {
			values['0' + i] = i;
		}
		for (int i = 0; i < 6; i++) {
			values['a' + i] = 10 + i;
			values['A' + i] = 10 + i;
		}
		return values;
	}

	/**
	 * A string value left in a UTF-8 body: its bytes there are exactly the UTF-8 of its text.
	 * @param body the body
	 * @param start where the string's text starts, after its opening quote
	 * @param length how many bytes its text has
	 */
	record Utf8Span(ByteChunks body, int start, int length) {
	}

	/** An array or object being read. */
	private static final class Container {

		final Container outer;

		final Map<String, Object> members;

		final List<Object> elements;

		final char closer;

		/** The name of the member whose value is being read. */
		String name;

		Container(Container outer, boolean object) {
			this.outer = outer;
			this.members = object ? new TreeMap<>() : null;
			this.elements = object ? null : new ArrayList<>();
			this.closer = object ? '}' : ']';
		}

		void add(Object value) {
			if (this.elements != null) {
				this.elements.add(value);
			}
			else if (this.members.put(this.name, value) != null) {
				// Readers disagree about duplicate names, so such a body is compared as bytes.
				throw NOT_JSON;
			}
		}

		Object value() {
			return (this.members != null) ? this.members : this.elements;
		}

	}

	/** The input is not one JSON value; thrown without a stack trace, and caught in {@link #read}. */
	private static final class NotJson extends RuntimeException {

		NotJson() {
			super(null, null, false, false);
		}

	}

}
