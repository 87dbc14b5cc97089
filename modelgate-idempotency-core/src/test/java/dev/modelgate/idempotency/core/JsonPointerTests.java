package dev.modelgate.idempotency.core;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** JSON Pointers as {@code ignoreFields} are written: RFC 6901, read as Jackson read them. */
class JsonPointerTests {

	@Test
	void expressionNotStartingWithSlashIsRefused() {
		for (String expression : List.of("abc", "a/b", " /a", "~1")) {
			assertThatIllegalArgumentException().isThrownBy(() -> JsonPointer.compile(expression))
				.withMessageContaining(expression);
		}
	}

	@Test
	void emptyPointerNamesTheWholeDocument() {
		assertThat(JsonPointer.compile("").tokens()).isEmpty();
	}

	@Test
	void tokensAreUnescaped() {
		assertThat(JsonPointer.compile("/a~1b/m~0n").tokens()).containsExactly("a/b", "m~n");
		assertThat(JsonPointer.compile("/~01").tokens()).containsExactly("~1");
		assertThat(JsonPointer.compile("/~10").tokens()).containsExactly("/0");
	}

	@Test
	void tildeNotFollowedByZeroOrOneStandsForItself() {
		assertThat(JsonPointer.compile("/~2").tokens()).containsExactly("~2");
		assertThat(JsonPointer.compile("/a~").tokens()).containsExactly("a~");
		assertThat(JsonPointer.compile("/a~/b").tokens()).containsExactly("a~", "b");
	}

	@Test
	void tokensMayBeEmpty() {
		assertThat(JsonPointer.compile("/").tokens()).containsExactly("");
		assertThat(JsonPointer.compile("//a/").tokens()).containsExactly("", "a", "");
	}

	@Test
	void toStringGivesBackTheExpression() {
		for (String expression : List.of("", "/", "/metadata/request_id", "/a~1b/m~0n", "/~2")) {
			assertThat(JsonPointer.compile(expression)).hasToString(expression);
		}
	}

	@Test
	void pointersAreEqualWhenWrittenAlike() {
		assertThat(JsonPointer.compile("/a/0")).isEqualTo(JsonPointer.compile("/a/0"))
			.hasSameHashCodeAs(JsonPointer.compile("/a/0"))
			.isNotEqualTo(JsonPointer.compile("/a/1"))
			.isNotEqualTo("/a/0");
		assertThat(JsonPointer.compile("/~")).isNotEqualTo(JsonPointer.compile("/~0"));
	}

	@Test
	void onlyCanonicalDecimalTokensNameArrayElements() {
		assertThat(JsonPointer.index("0")).isZero();
		assertThat(JsonPointer.index("7")).isEqualTo(7);
		assertThat(JsonPointer.index("2147483647")).isEqualTo(Integer.MAX_VALUE);
		for (String token : List.of("", "00", "01", "-1", "+1", "-", "1a", " 1", "1e0", "2147483648", "99999999999",
				"\u0661")) {
			assertThat(JsonPointer.index(token)).as(token).isEqualTo(-1);
		}
	}

}
