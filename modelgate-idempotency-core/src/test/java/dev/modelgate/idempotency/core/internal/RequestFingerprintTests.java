package dev.modelgate.idempotency.core.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * The fingerprint that tells a retry from a different request under the same key: method, route,
 * canonical query and canonical body (contract, section 4).
 */
class RequestFingerprintTests {

	@Test
	void isLowerCaseHexSha256() {
		assertThat(RequestFingerprint.of("POST", "/orders", null, CanonicalBody.bytes(new byte[0])))
			.matches("[0-9a-f]{64}");
	}

	@Test
	void sameRequestHasSameFingerprint() {
		assertThat(fingerprint("POST", "/orders", "a=1", "{\"x\":1}"))
			.isEqualTo(fingerprint("POST", "/orders", "a=1", "{\"x\":1}"));
	}

	@Test
	void jsonBodyIsComparedByMeaning() {
		assertThat(fingerprint("POST", "/orders", null, "{\"a\":1,\"b\":[true]}"))
			.isEqualTo(fingerprint("POST", "/orders", null, " { \"b\" : [ true ] , \"a\" : 1.0 } "));
	}

	@Test
	void jsonBodyIsHashedAsItsRfc8785TextAfterTheRequestsFields() throws Exception {
		MessageDigest expected = MessageDigest.getInstance("SHA-256");
		for (String field : List.of("POST", "/orders")) {
			expected.update(new byte[] { 0, 0, 0, (byte) field.length() });
			expected.update(field.getBytes(StandardCharsets.UTF_8));
		}
		expected.update(new byte[] { 0, 0, 0, 0, 'J' });
		expected.update("{\"a\":[1,0.5,\"\u00e9\"],\"b\":1e+21}".getBytes(StandardCharsets.UTF_8));
		assertThat(fingerprint("POST", "/orders", null, "{ \"b\": 1E21, \"a\": [1.0, 5e-1, \"\\u00e9\"] }"))
			.isEqualTo(HexFormat.of().formatHex(expected.digest()));
	}

	@Test
	void differentBodyHasDifferentFingerprint() {
		assertThat(fingerprint("POST", "/orders", null, "{\"a\":1}"))
			.isNotEqualTo(fingerprint("POST", "/orders", null, "{\"a\":2}"));
	}

	@Test
	void methodIsPartOfTheFingerprint() {
		assertThat(fingerprint("POST", "/orders", null, "{}")).isNotEqualTo(fingerprint("PUT", "/orders", null, "{}"));
	}

	@Test
	void routeIsPartOfTheFingerprint() {
		assertThat(fingerprint("POST", "/orders", null, "{}"))
			.isNotEqualTo(fingerprint("POST", "/orders/{id}", null, "{}"));
	}

	@Test
	void fieldBoundariesAreUnambiguous() {
		assertThat(fingerprint("POST", "/a", null, "{}")).isNotEqualTo(fingerprint("POST/", "a", null, "{}"));
		assertThat(fingerprint("POST", "/a", "b=c", "{}")).isNotEqualTo(fingerprint("POST", "/ab", "=c", "{}"));
	}

	@Test
	void queryParameterOrderDoesNotMatter() {
		assertThat(fingerprint("GET", "/r", "b=2&a=1&c=3", ""))
			.isEqualTo(fingerprint("GET", "/r", "a=1&c=3&b=2", ""));
	}

	@Test
	void repeatedQueryParameterValuesAreOrderInsensitiveButCounted() {
		assertThat(fingerprint("GET", "/r", "a=2&a=1", "")).isEqualTo(fingerprint("GET", "/r", "a=1&a=2", ""));
		assertThat(fingerprint("GET", "/r", "a=1&a=1", "")).isNotEqualTo(fingerprint("GET", "/r", "a=1", ""));
	}

	@Test
	void queryIsComparedDecoded() {
		assertThat(fingerprint("GET", "/r", "a=%41", "")).isEqualTo(fingerprint("GET", "/r", "a=A", ""));
		assertThat(fingerprint("GET", "/r", "%61=b", "")).isEqualTo(fingerprint("GET", "/r", "a=b", ""));
		assertThat(fingerprint("GET", "/r", "q=a+b", "")).isEqualTo(fingerprint("GET", "/r", "q=a%20b", ""));
		assertThat(fingerprint("GET", "/r", "q=caf%C3%A9", "")).isEqualTo(fingerprint("GET", "/r", "q=café", ""));
	}

	@Test
	void queryValuesMatter() {
		assertThat(fingerprint("GET", "/r", "a=1", "")).isNotEqualTo(fingerprint("GET", "/r", "a=2", ""));
		assertThat(fingerprint("GET", "/r", "a=1", "")).isNotEqualTo(fingerprint("GET", "/r", "b=1", ""));
		assertThat(fingerprint("GET", "/r", "a=1&b=2", "")).isNotEqualTo(fingerprint("GET", "/r", "a=1", ""));
		assertThat(fingerprint("GET", "/r", "a=b%26c=d", "")).isNotEqualTo(fingerprint("GET", "/r", "a=b&c=d", ""));
	}

	@Test
	void emptyQueryIsNoQuery() {
		assertThat(fingerprint("GET", "/r", "", "")).isEqualTo(fingerprint("GET", "/r", null, ""));
	}

	@Test
	void malformedPercentEncodingDoesNotThrow() {
		assertThat(fingerprint("GET", "/r", "a=%zz&b=%&c=%4", "")).hasSize(64);
		assertThat(fingerprint("GET", "/r", "a=%zz", "")).isNotEqualTo(fingerprint("GET", "/r", "a=zz", ""));
	}

	@Test
	void canonicalQuerySortsDecodedParametersByNameThenValue() {
		assertThat(RequestFingerprint.canonicalQuery("b=2&a=%32&a=1&&c"))
			.containsExactly(entry("a", "1"), entry("a", "2"), entry("b", "2"), entry("c", ""));
	}

	@Test
	void multipartBodyIsPartOfTheFingerprint() {
		CanonicalBody first = CanonicalBody
			.parts(List.of(new CanonicalBody.Part("file", "a.txt", "one".getBytes(StandardCharsets.UTF_8))));
		CanonicalBody same = CanonicalBody
			.parts(List.of(new CanonicalBody.Part("file", "a.txt", "one".getBytes(StandardCharsets.UTF_8))));
		CanonicalBody other = CanonicalBody
			.parts(List.of(new CanonicalBody.Part("file", "a.txt", "two".getBytes(StandardCharsets.UTF_8))));
		assertThat(RequestFingerprint.of("POST", "/files", null, first))
			.isEqualTo(RequestFingerprint.of("POST", "/files", null, same))
			.isNotEqualTo(RequestFingerprint.of("POST", "/files", null, other));
	}

	@Test
	void canonicalQueryOfNothingIsEmpty() {
		assertThat(RequestFingerprint.canonicalQuery(null)).isEmpty();
		assertThat(RequestFingerprint.canonicalQuery("&&")).isEmpty();
	}

	@Test
	void canonicalQueryDecodesPercentEncodedUtf8() {
		List<Map.Entry<String, String>> query = RequestFingerprint.canonicalQuery("x=%E2%82%AC");
		assertThat(query).containsExactly(entry("x", "\u20AC"));
	}

	private static String fingerprint(String method, String route, String query, String jsonBody) {
		byte[] body = jsonBody.getBytes(StandardCharsets.UTF_8);
		return RequestFingerprint.of(method, route, query, CanonicalBody.json(body, 0, body.length, List.of()));
	}

}
