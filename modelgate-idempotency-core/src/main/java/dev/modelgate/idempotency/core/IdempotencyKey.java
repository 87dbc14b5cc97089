package dev.modelgate.idempotency.core;

import java.util.List;

/**
 * A validated idempotency key, as sent by the client.
 *
 * <p>The header is read either as a plain token or as an RFC 8941 sf-string, so {@code "abc"} and
 * {@code abc} are the same key. Length and characters are judged after unquoting. The raw value is
 * only ever used to compute a scope hash; it is not stored and not logged.
 */
public final class IdempotencyKey {

	private final String value;

	private IdempotencyKey(String value) {
		this.value = value;
	}

	/**
	 * Parses the values of every occurrence of the key header.
	 * @param headerValues one entry per header line received, empty when the header is absent
	 * @param maxLength the longest key accepted, in characters after unquoting
	 * @return the key, or {@code null} when the request carries no key header at all
	 * @throws InvalidIdempotencyKeyException when a key is present but cannot be used
	 */
	public static IdempotencyKey parse(List<String> headerValues, int maxLength) {
		if (headerValues.isEmpty()) {
			return null;
		}
		if (headerValues.size() > 1) {
			throw new InvalidIdempotencyKeyException("the key header was sent more than once");
		}
		String trimmed = trimOptionalWhitespace(headerValues.get(0));
		String key = (trimmed.startsWith("\"")) ? unquote(trimmed) : plainToken(trimmed);
		if (key.isEmpty()) {
			throw new InvalidIdempotencyKeyException("the key is empty");
		}
		if (key.length() > maxLength) {
			throw new InvalidIdempotencyKeyException("the key is longer than " + maxLength + " characters");
		}
		for (int i = 0; i < key.length(); i++) {
			char c = key.charAt(i);
			if (c < 0x21 || c > 0x7E) {
				throw new InvalidIdempotencyKeyException(
						"the key may only contain visible ASCII characters (0x21-0x7E), without spaces");
			}
		}
		return new IdempotencyKey(key);
	}

	private static String plainToken(String value) {
		if (value.indexOf(',') >= 0) {
			throw new InvalidIdempotencyKeyException("the key header holds more than one value");
		}
		return value;
	}

	/** Reads an RFC 8941 sf-string: {@code DQUOTE *( unescaped / "\" ( DQUOTE / "\" ) ) DQUOTE}. */
	private static String unquote(String quoted) {
		StringBuilder key = new StringBuilder(quoted.length());
		for (int i = 1; i < quoted.length(); i++) {
			char c = quoted.charAt(i);
			if (c == '\\') {
				if (i + 1 >= quoted.length()) {
					break;
				}
				char escaped = quoted.charAt(++i);
				if (escaped != '"' && escaped != '\\') {
					throw new InvalidIdempotencyKeyException("the quoted key has an invalid escape");
				}
				key.append(escaped);
			}
			else if (c == '"') {
				if (i != quoted.length() - 1) {
					throw new InvalidIdempotencyKeyException(
							"the key header holds more than one value or text after the quoted key");
				}
				return key.toString();
			}
			else {
				key.append(c);
			}
		}
		throw new InvalidIdempotencyKeyException("the quoted key has no closing quote");
	}

	private static String trimOptionalWhitespace(String value) {
		int start = 0;
		int end = value.length();
		while (start < end && isOptionalWhitespace(value.charAt(start))) {
			start++;
		}
		while (end > start && isOptionalWhitespace(value.charAt(end - 1))) {
			end--;
		}
		return value.substring(start, end);
	}

	private static boolean isOptionalWhitespace(char c) {
		return c == ' ' || c == '\t';
	}

	/** {@return the key as the client meant it (unquoted)} Never log or store it. */
	public String value() {
		return this.value;
	}

	@Override
	public boolean equals(Object other) {
		return (other instanceof IdempotencyKey that) && this.value.equals(that.value);
	}

	@Override
	public int hashCode() {
		return this.value.hashCode();
	}

	@Override
	public String toString() {
		return "IdempotencyKey[redacted]";
	}

}
