package dev.modelgate.idempotency.core.internal;

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
 * <p>A JSON body is compared by its RFC 8785 canonical form, with the members named by
 * {@code ignoreFields} left out: object keys in any order, any white space, and numbers written
 * differently with one value ({@code 1}, {@code 1.0}, {@code 1e0}) give the same fingerprint. A
 * body with no canonical form (not exactly one JSON value in UTF-8, a duplicate member name, a
 * number whose value is not that of its RFC 8785 text, such as {@code 9007199254740993}) is compared
 * byte for byte, as is every non-JSON body.
 */
public abstract class CanonicalBody {

	abstract void writeTo(Hashing hashing);

	/**
	 * {@return a body compared byte for byte}
	 * @param body the body's bytes
	 */
	public static CanonicalBody bytes(byte[] body) {
		return bytes(ByteChunks.of(body));
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
	 * A JSON body, compared by its RFC 8785 canonical form; falls back to bytes when it has none.
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
	 * A JSON body held in chunks, compared by its RFC 8785 canonical form, read from the chunks in
	 * place; falls back to bytes when it has none. It gives the same fingerprint as
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
		if (!CanonicalJson.isExact(tree)) {
			return bytes(body);
		}
		return new CanonicalBody() {
			@Override
			void writeTo(Hashing hashing) {
				// The canonical text goes into the digest as it is written, without a length: the body is
				// the last field of a fingerprint.
				hashing.tag('J');
				CanonicalJson.write(tree, new CanonicalJson.Output() {
					@Override
					public void write(int b) {
						hashing.write(b);
					}

					@Override
					public void write(ByteChunks body, int start, int length) {
						body.update(hashing, start, length);
					}
				});
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

	/** One part of a multipart body. */
	public record Part(String name, String fileName, byte[] content) {
	}

}
