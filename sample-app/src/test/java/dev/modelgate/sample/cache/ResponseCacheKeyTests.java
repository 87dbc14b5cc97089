package dev.modelgate.sample.cache;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class ResponseCacheKeyTests {

	@Test
	void ignoresMemberOrderAndWhiteSpaceAndHowNumbersAreWritten() {
		String key = ResponseCacheKey.of("Bearer a", json("{\"model\":\"m\",\"temperature\":0,\"top_p\":1}"));

		assertThat(ResponseCacheKey.of("Bearer a", json("{ \"top_p\": 1.0, \"temperature\": 0e0, \"model\": \"m\" }")))
			.isEqualTo(key);
	}

	@Test
	void differsByClient() {
		JsonNode request = json("{\"model\":\"m\"}");

		assertThat(ResponseCacheKey.of("Bearer a", request)).isNotEqualTo(ResponseCacheKey.of("Bearer b", request))
			.isNotEqualTo(ResponseCacheKey.of(null, request));
	}

	@Test
	void differsByRequest() {
		assertThat(ResponseCacheKey.of(null, json("{\"model\":\"m\",\"n\":[1,2]}")))
			.isNotEqualTo(ResponseCacheKey.of(null, json("{\"model\":\"m\",\"n\":[2,1]}")));
	}

	@Test
	void isAHexDigestThatRevealsNothing() {
		assertThat(ResponseCacheKey.of("Bearer sk-secret", json("{\"model\":\"m\"}"))).matches("[0-9a-f]{64}");
	}

	private static JsonNode json(String json) {
		return JsonMapper.shared().readTree(json);
	}

}
