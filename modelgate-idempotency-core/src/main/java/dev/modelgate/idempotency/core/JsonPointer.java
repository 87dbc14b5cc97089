package dev.modelgate.idempotency.core;

import java.util.ArrayList;
import java.util.List;

/**
 * A JSON Pointer (RFC 6901) such as {@code /metadata/request_id}: the path to one value inside a
 * JSON document, used to name members left out of a body's fingerprint.
 *
 * <p>In a reference token {@code ~1} stands for {@code /} and {@code ~0} for {@code ~}; a {@code ~}
 * followed by anything else stands for itself. The empty pointer names the whole document.
 */
public final class JsonPointer {

	private static final JsonPointer WHOLE_DOCUMENT = new JsonPointer("", List.of());

	private final String expression;

	private final List<String> tokens;

	private JsonPointer(String expression, List<String> tokens) {
		this.expression = expression;
		this.tokens = tokens;
	}

	/**
	 * Parses a pointer.
	 * @param expression the pointer: empty, or reference tokens each preceded by {@code /}
	 * @return the pointer
	 * @throws IllegalArgumentException if the expression is neither empty nor starts with {@code /}
	 */
	public static JsonPointer compile(String expression) {
		if (expression.isEmpty()) {
			return WHOLE_DOCUMENT;
		}
		if (expression.charAt(0) != '/') {
			throw new IllegalArgumentException(
					"A JSON Pointer must be empty or start with '/', but was \"" + expression + "\"");
		}
		List<String> tokens = new ArrayList<>();
		StringBuilder token = new StringBuilder();
		for (int i = 1; i < expression.length(); i++) {
			char c = expression.charAt(i);
			if (c == '/') {
				tokens.add(token.toString());
				token.setLength(0);
			}
			else if (c == '~' && i + 1 < expression.length() && isEscapeCode(expression.charAt(i + 1))) {
				i++;
				token.append((expression.charAt(i) == '0') ? '~' : '/');
			}
			else {
				token.append(c);
			}
		}
		tokens.add(token.toString());
		return new JsonPointer(expression, List.copyOf(tokens));
	}

	private static boolean isEscapeCode(char c) {
		return c == '0' || c == '1';
	}

	/** {@return the unescaped reference tokens, outermost first; none for the whole document} */
	public List<String> tokens() {
		return this.tokens;
	}

	/**
	 * The array index a reference token names: {@code 0} or a decimal number without leading zeros
	 * that fits an {@code int}.
	 * @param token a reference token
	 * @return the index, or {@code -1} when the token can only name an object member
	 */
	public static int index(String token) {
		if (token.equals("0")) {
			return 0;
		}
		if (token.isEmpty() || token.length() > 10 || token.charAt(0) == '0') {
			return -1;
		}
		for (int i = 0; i < token.length(); i++) {
			char c = token.charAt(i);
			if (c < '0' || c > '9') {
				return -1;
			}
		}
		long index = Long.parseLong(token);
		return (index <= Integer.MAX_VALUE) ? (int) index : -1;
	}

	@Override
	public boolean equals(Object other) {
		return (other instanceof JsonPointer that) && this.expression.equals(that.expression);
	}

	@Override
	public int hashCode() {
		return this.expression.hashCode();
	}

	/** The pointer as written, escapes included. */
	@Override
	public String toString() {
		return this.expression;
	}

}
