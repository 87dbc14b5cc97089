package dev.modelgate.idempotency.core.internal;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

/**
 * Reads a UTF-8 body as one strict JSON value (RFC 8259) and writes it in the JSON Canonicalization
 * Scheme (RFC 8785): no white space, members sorted by the UTF-16 code units of their names,
 * strings with only the escapes RFC 8785 keeps, numbers as ECMAScript writes the nearest double.
 * The reading is {@link StrictJsonReader}'s, the numbers' text {@link CanonicalNumber}'s.
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

	/**
	 * A number whose RFC 8785 text would have another value: a tree that keeps one has no canonical
	 * form, but it may be left out by an ignored field.
	 */
	static final Object INEXACT = new Object();

	private CanonicalJson() {
	}

	/**
	 * Reads a body as one JSON value.
	 * @return the value, which may hold {@link #INEXACT} numbers, or {@code null} when the body is not
	 * exactly one JSON value in UTF-8 (an empty body included) or nests too deep
	 */
	static @Nullable Object read(ByteChunks body) {
		return StrictJsonReader.read(body);
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
				at = StrictJsonReader.escape(body, plain + 1, (codePoint) -> character(codePoint, out));
			}
			else {
				at = StrictJsonReader.utf8(body, plain + 1, c, StrictJsonReader.SKIP);
				out.write(body, plain, at - plain);
			}
		}
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

}
