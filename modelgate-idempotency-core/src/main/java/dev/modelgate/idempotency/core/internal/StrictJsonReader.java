package dev.modelgate.idempotency.core.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntConsumer;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Reads a UTF-8 body as one strict JSON value (RFC 8259) into the tree {@link CanonicalJson}
 * writes, and rejects what has no canonical form: anything but exactly one JSON value in well-formed
 * UTF-8, a duplicate member name, an unpaired surrogate, nesting deeper than
 * {@value CanonicalJson#MAX_DEPTH}.
 */
final class StrictJsonReader {

	/** Takes the code points of a string that is only checked. */
	static final IntConsumer SKIP = (codePoint) -> {
	};

	private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?");

	private static final NoCanonicalForm NO_CANONICAL_FORM = new NoCanonicalForm();

	private final ByteChunks body;

	private int position;

	private int depth;

	private StrictJsonReader(ByteChunks body) {
		this.body = body;
	}

	/** See {@link CanonicalJson#read}. */
	static @Nullable Object read(ByteChunks body) {
		StrictJsonReader reader = new StrictJsonReader(body);
		try {
			Object value = reader.value(reader.skipWhiteSpace());
			return (reader.skipWhiteSpace() < 0) ? value : null;
		}
		catch (NoCanonicalForm ex) {
			return null;
		}
	}

	private Object value(int first) {
		switch (first) {
			case '{':
				return object();
			case '[':
				return array();
			case '"':
				CanonicalJson.Text text = new CanonicalJson.Text(this.body, this.position);
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
		if (++this.depth > CanonicalJson.MAX_DEPTH) {
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
	 * {@link CanonicalJson#INEXACT} when that text would not have the number's value.
	 */
	private Object number(int first) {
		StringBuilder text = new StringBuilder().append((char) first);
		while ("0123456789.eE+-".indexOf(peek()) >= 0) {
			text.append((char) next());
		}
		if (!NUMBER.matcher(text).matches()) {
			throw NO_CANONICAL_FORM;
		}
		String canonical = CanonicalNumber.text(text);
		return (canonical != null) ? canonical : CanonicalJson.INEXACT;
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

	/**
	 * Reads an escape whose backslash has been read; a surrogate must be the first of a pair.
	 * @return the position after it
	 */
	static int escape(ByteChunks body, int start, IntConsumer out) {
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
	 * @return the position after it
	 */
	static int utf8(ByteChunks body, int start, int first, IntConsumer out) {
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

	/** The body has no canonical form; thrown without a stack trace, and caught in {@link #read}. */
	private static final class NoCanonicalForm extends RuntimeException {

		NoCanonicalForm() {
			super(null, null, false, false);
		}

	}

}
