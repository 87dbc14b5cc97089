package dev.modelgate.idempotency.core.internal;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.modelgate.idempotency.core.JsonPointer;

/**
 * The part of a fingerprint that comes from the request body.
 *
 * <p>A JSON body is compared by meaning: object keys in any order, any white space, and numbers equal
 * as decimals ({@code 1}, {@code 1.0}, {@code 1e0}) give the same fingerprint, and members named by
 * {@code ignoreFields} are left out. A body that does not parse as one JSON value (including
 * duplicate member names, which readers disagree about) is compared byte for byte, as is every
 * non-JSON body.
 */
public abstract class CanonicalBody {

	private static final CanonicalBody EMPTY = bytes(new byte[0]);

	abstract void writeTo(Hashing hashing);

	/** {@return a body with no content} */
	public static CanonicalBody empty() {
		return EMPTY;
	}

	/**
	 * {@return a body compared byte for byte}
	 * @param body the body's bytes
	 */
	public static CanonicalBody bytes(byte[] body) {
		return bytes(body, 0, body.length);
	}

	/**
	 * {@return a slice of a buffer compared byte for byte} It avoids copying a captured body.
	 * @param buffer holds the body
	 * @param offset where the body starts in the buffer
	 * @param length how many bytes the body has
	 */
	public static CanonicalBody bytes(byte[] buffer, int offset, int length) {
		return new CanonicalBody() {
			@Override
			void writeTo(Hashing hashing) {
				hashing.tag('B').field(buffer, offset, length);
			}
		};
	}

	/**
	 * {@return a body held in chunks, compared byte for byte} It is hashed chunk by chunk, and gives
	 * the same fingerprint as {@link #bytes(byte[])} of the same bytes.
	 * @param body the body
	 */
	public static CanonicalBody bytes(ByteChunks body) {
		return new CanonicalBody() {
			@Override
			void writeTo(Hashing hashing) {
				hashing.tag('B').field(body);
			}
		};
	}

	/**
	 * A JSON body, compared by meaning; falls back to bytes when it is not exactly one valid JSON
	 * value.
	 * @param buffer holds the body
	 * @param offset where the body starts in the buffer
	 * @param length how many bytes the body has
	 * @param ignoreFields JSON Pointers of members to leave out
	 * @return the body
	 */
	public static CanonicalBody json(byte[] buffer, int offset, int length, Collection<JsonPointer> ignoreFields) {
		Objects.checkFromIndexSize(offset, length, buffer.length);
		byte[] body = (offset == 0 && length == buffer.length) ? buffer
				: Arrays.copyOfRange(buffer, offset, offset + length);
		return json(ByteChunks.of(body), ignoreFields);
	}

	/**
	 * A JSON body held in chunks, compared by meaning, read from the chunks in place; falls back to
	 * bytes when it is not exactly one valid JSON value. It gives the same fingerprint as
	 * {@link #json(byte[], int, int, Collection)} of the same bytes.
	 * @param body the body
	 * @param ignoreFields JSON Pointers of members to leave out
	 * @return the body
	 */
	public static CanonicalBody json(ByteChunks body, Collection<JsonPointer> ignoreFields) {
		Object tree = CanonicalJson.read(body);
		if (tree == null) {
			return bytes(body);
		}
		for (JsonPointer pointer : ignoreFields) {
			remove(tree, pointer);
		}
		return new CanonicalBody() {
			@Override
			void writeTo(Hashing hashing) {
				hashing.tag('J');
				write(tree, hashing);
			}
		};
	}

	/**
	 * A multipart body, compared part by part in the order received.
	 * @param parts each part's name, file name (or empty) and content bytes
	 * @return the body
	 */
	public static CanonicalBody parts(List<Part> parts) {
		return new CanonicalBody() {
			@Override
			void writeTo(Hashing hashing) {
				hashing.tag('M').length(parts.size());
				for (Part part : parts) {
					hashing.field(part.name()).field(part.fileName()).field(part.content());
				}
			}
		};
	}

	/**
	 * Parses JSON Pointers given as strings, failing with a message naming the bad one.
	 * @param expressions the pointers, such as {@code /metadata/timestamp}
	 * @return the parsed pointers, in order
	 */
	public static List<JsonPointer> pointers(String... expressions) {
		List<JsonPointer> pointers = new ArrayList<>(expressions.length);
		for (String expression : expressions) {
			try {
				pointers.add(JsonPointer.compile(expression));
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException("'" + expression + "' is not a JSON Pointer (RFC 6901), "
						+ "write it like /metadata/request_id", ex);
			}
		}
		return pointers;
	}

	/**
	 * Removes the member or element a pointer names, if there is one. An element is only removed when
	 * the pointer's last token is an index within the array; the empty pointer removes nothing.
	 */
	private static void remove(Object root, JsonPointer pointer) {
		List<String> tokens = pointer.tokens();
		if (tokens.isEmpty()) {
			return;
		}
		Object parent = root;
		for (String token : tokens.subList(0, tokens.size() - 1)) {
			parent = child(parent, token);
		}
		String last = tokens.get(tokens.size() - 1);
		if (parent instanceof Map<?, ?> object) {
			object.remove(last);
		}
		else if (parent instanceof List<?> array) {
			int index = JsonPointer.index(last);
			if (index >= 0 && index < array.size()) {
				array.remove(index);
			}
		}
	}

	/** The member or element a token names, or {@code null} when there is none. */
	private static Object child(Object node, String token) {
		if (node instanceof Map<?, ?> object) {
			return object.get(token);
		}
		if (node instanceof List<?> array) {
			int index = JsonPointer.index(token);
			return (index >= 0 && index < array.size()) ? array.get(index) : null;
		}
		return null;
	}

	private static void write(Object node, Hashing hashing) {
		if (node instanceof Map<?, ?> object) {
			// Members come sorted by name (String order), the order stored fingerprints were hashed in.
			hashing.tag('o').length(object.size());
			for (Map.Entry<?, ?> member : object.entrySet()) {
				hashing.field((String) member.getKey());
				write(member.getValue(), hashing);
			}
		}
		else if (node instanceof List<?> array) {
			hashing.tag('a').length(array.size());
			for (Object element : array) {
				write(element, hashing);
			}
		}
		else if (node instanceof String string) {
			hashing.tag('s').field(string);
		}
		else if (node instanceof CanonicalJson.Utf8Span span) {
			// The same bytes as the text's UTF-8, hashed where they are in the body.
			hashing.tag('s').field(span.body(), span.start(), span.length());
		}
		else if (node instanceof BigDecimal decimal) {
			write(decimal, hashing);
		}
		else if (node instanceof Boolean bool) {
			hashing.tag(bool ? 't' : 'f');
		}
		else {
			hashing.tag('z');
		}
	}

	private static void write(BigDecimal number, Hashing hashing) {
		// Unscaled value and scale of the stripped decimal: exact, and short even for 1e999999.
		BigDecimal stripped;
		try {
			stripped = number.stripTrailingZeros();
		}
		catch (ArithmeticException ex) {
			// Stripping would push the scale past int (100e2147483647): compare it as read.
			hashing.tag('N').field(number.toString());
			return;
		}
		hashing.tag('n').field(stripped.unscaledValue().toString()).length(stripped.scale());
	}

	/** One part of a multipart body. */
	public record Part(String name, String fileName, byte[] content) {
	}

}
