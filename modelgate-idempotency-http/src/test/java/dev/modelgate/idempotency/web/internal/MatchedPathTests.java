package dev.modelgate.idempotency.web.internal;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The path that goes into the fingerprint: what Spring MVC's path patterns match, in one spelling.
 */
class MatchedPathTests {

	@ParameterizedTest
	@ValueSource(strings = { "/v1/chat/completions", "/", "/orders/7", "/items/caf%C3%A9", "/a/b:c@d!$&'()*+,=-._~",
			"/app/v1/chat/completions" })
	void pathAlreadyInItsPlainSpellingIsKeptAsItWas(String path) {
		assertThat(MatchedPath.of(path)).isEqualTo(path);
	}

	@ParameterizedTest
	@ValueSource(strings = { "/v1/chat/%63ompletions", "/%76%31/chat/completions", "/v1/chat/completions;jsessionid=0A1B",
			"/v1;a=b/chat/completions", "/v1/chat;x=1;y=2/completions;z", "/v1/%63hat;a=b/completions" })
	void spellingsSpringMvcMatchesAsTheSamePathAreOnePath(String path) {
		assertThat(MatchedPath.of(path)).isEqualTo("/v1/chat/completions");
	}

	@Test
	void encodedSlashStaysApartFromASeparator() {
		assertThat(MatchedPath.of("/items/a%2Fb")).isEqualTo("/items/a%2Fb").isNotEqualTo(MatchedPath.of("/items/a/b"));
	}

	@Test
	void encodedSemicolonIsPartOfTheSegmentNotAParameter() {
		assertThat(MatchedPath.of("/items/a%3Bb")).isNotEqualTo(MatchedPath.of("/items/a"));
	}

	@Test
	void percentEncodingIsNormalisedToUpperCaseHexOfUtf8() {
		assertThat(MatchedPath.of("/items/caf%c3%a9")).isEqualTo("/items/caf%C3%A9");
	}

	@Test
	void bytesThatAreNotUtf8StayDistinct() {
		assertThat(MatchedPath.of("/items/%FF")).isNotEqualTo(MatchedPath.of("/items/%FE"))
			.isNotEqualTo(MatchedPath.of("/items/%EF%BF%BD"));
		assertThat(MatchedPath.of("/items/%FF;v=1")).isEqualTo("/items/%FF");
	}

	@Test
	void aPlainPathKeptWithoutParsingIsWhatParsingWouldGive() {
		String alphabet = "/-._~!$&'()*+,=:@aZ09%;\"<>{}|^` \u00e9";
		Random random = new Random(42);
		int plain = 0;
		for (int run = 0; run < 20_000; run++) {
			StringBuilder path = new StringBuilder("/");
			for (int length = random.nextInt(12); length > 0; length--) {
				path.append(alphabet.charAt(random.nextInt(alphabet.length())));
			}
			String candidate = path.toString();
			if (MatchedPath.isPlain(candidate)) {
				plain++;
				assertThat(MatchedPath.of(candidate)).as(candidate).isEqualTo(MatchedPath.parsed(candidate));
			}
		}
		assertThat(plain).isGreaterThan(1_000);
		assertThat(MatchedPath.isPlain("/v1/chat/completions;a=b")).isFalse();
		assertThat(MatchedPath.isPlain("/items/caf%C3%A9")).isFalse();
	}

	@Test
	void dotAndEmptySegmentsAreLeftAsSpringMvcLeavesThem() {
		assertThat(MatchedPath.of("/v1/./chat")).isEqualTo("/v1/./chat");
		assertThat(MatchedPath.of("//v1/chat")).isEqualTo("//v1/chat");
	}

}
