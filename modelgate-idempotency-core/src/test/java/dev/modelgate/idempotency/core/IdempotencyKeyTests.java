package dev.modelgate.idempotency.core;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Parsing of the {@code Idempotency-Key} header: a plain token or an RFC 8941 sf-string, judged
 * after unquoting (contract, section 3).
 */
class IdempotencyKeyTests {

	private static final int MAX_LENGTH = 255;

	@Test
	void acceptsPlainToken() {
		assertThat(parse("order-42_A.b~c").value()).isEqualTo("order-42_A.b~c");
	}

	@Test
	void acceptsEveryVisibleAsciiCharacterExceptCommaInPlainToken() {
		StringBuilder all = new StringBuilder();
		for (char c = 0x21; c <= 0x7E; c++) {
			if (c != ',') {
				all.append(c);
			}
		}
		// A leading '"' would make it an sf-string, so start with a letter.
		String key = "k" + all.toString().replace("\"", "");
		assertThat(parse(key).value()).isEqualTo(key);
	}

	@Test
	void quotedKeyIsTheSameKeyAsThePlainToken() {
		assertThat(parse("\"abc\"")).isEqualTo(parse("abc"));
		assertThat(parse("\"abc\"").value()).isEqualTo("abc");
	}

	@Test
	void quotedKeyUnescapesQuoteAndBackslash() {
		assertThat(parse("\"a\\\"b\\\\c\"").value()).isEqualTo("a\"b\\c");
	}

	@Test
	void quotedKeyMayContainComma() {
		assertThat(parse("\"a,b\"").value()).isEqualTo("a,b");
	}

	@Test
	void optionalWhitespaceAroundTheValueIsTrimmed() {
		assertThat(parse("  \tabc\t  ").value()).isEqualTo("abc");
		assertThat(parse(" \t\"abc\" \t").value()).isEqualTo("abc");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "\t", " \t  \t", "\"\"", "  \"\"  " })
	void refusesEmptyKey(String header) {
		assertInvalid(header);
	}

	@Test
	void acceptsKeyOfExactlyMaxLength() {
		String key = "k".repeat(MAX_LENGTH);
		assertThat(parse(key).value()).isEqualTo(key);
	}

	@Test
	void refusesKeyOneLongerThanMaxLength() {
		assertInvalid("k".repeat(MAX_LENGTH + 1));
	}

	@Test
	void judgesLengthAfterUnquoting() {
		String key = "k".repeat(MAX_LENGTH);
		assertThat(parse("\"" + key + "\"").value()).isEqualTo(key);
		assertInvalid("\"" + key + "k\"");
	}

	@Test
	void judgesLengthOfEscapedKeyAfterUnescaping() {
		// 255 backslashes take 510 characters once escaped, plus two quotes.
		String escaped = "\\\\".repeat(MAX_LENGTH);
		assertThat(parse("\"" + escaped + "\"").value()).isEqualTo("\\".repeat(MAX_LENGTH));
	}

	@Test
	void usesTheConfiguredMaxLength() {
		assertThat(IdempotencyKey.parse(List.of("abcd"), 4).value()).isEqualTo("abcd");
		assertThatExceptionOfType(InvalidIdempotencyKeyException.class)
			.isThrownBy(() -> IdempotencyKey.parse(List.of("abcde"), 4));
	}

	@ParameterizedTest
	@ValueSource(strings = { "a b", "a\tb", "\"a b\"", "\"a\tb\"", "a\u007Fb", "caf\u00E9", "\"caf\u00E9\"",
			"key\u20AC", "a\u0000b", "a\u001Fb", "a\rb", "a\nb", "\"a\u0001b\"" })
	void refusesCharactersOutsideVisibleAscii(String header) {
		assertInvalid(header);
	}

	@Test
	void refusesUnquotedComma() {
		assertInvalid("a,b");
		assertInvalid("a, b");
	}

	@Test
	void refusesRepeatedHeader() {
		assertThatExceptionOfType(InvalidIdempotencyKeyException.class)
			.isThrownBy(() -> IdempotencyKey.parse(List.of("a", "b"), MAX_LENGTH));
		assertThatExceptionOfType(InvalidIdempotencyKeyException.class)
			.isThrownBy(() -> IdempotencyKey.parse(List.of("same", "same"), MAX_LENGTH));
	}

	@ParameterizedTest
	@ValueSource(strings = { "\"abc\"x", "\"abc\" x", "\"abc\", \"def\"", "\"abc\",def", "\"abc\"\"" })
	void refusesTextAfterClosingQuote(String header) {
		assertInvalid(header);
	}

	@ParameterizedTest
	@ValueSource(strings = { "\"abc", "\"", "\"abc\\\"", "\"abc\\" })
	void refusesUnterminatedQuotedKey(String header) {
		assertInvalid(header);
	}

	@ParameterizedTest
	@ValueSource(strings = { "\"a\\bc\"", "\"a\\nb\"", "\"\\x\"" })
	void refusesInvalidEscape(String header) {
		assertInvalid(header);
	}

	@Test
	void absentHeaderIsNoKey() {
		assertThat(IdempotencyKey.parse(List.of(), MAX_LENGTH)).isNull();
	}

	@Test
	void toStringNeverRevealsTheKey() {
		IdempotencyKey key = parse("secret-key-123");
		assertThat(key.toString()).doesNotContain("secret").doesNotContain("key-123");
		assertThat(String.valueOf(key)).doesNotContain("secret-key-123");
	}

	@Test
	void invalidKeyMessageNeverRevealsTheKey() {
		assertThatExceptionOfType(InvalidIdempotencyKeyException.class).isThrownBy(() -> parse("secret key"))
			.satisfies((ex) -> assertThat(ex.getMessage()).doesNotContain("secret"));
	}

	private static IdempotencyKey parse(String header) {
		return IdempotencyKey.parse(List.of(header), MAX_LENGTH);
	}

	private static void assertInvalid(String header) {
		assertThatExceptionOfType(InvalidIdempotencyKeyException.class).isThrownBy(() -> parse(header));
	}

}
