package dev.modelgate.idempotency.core.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.modelgate.idempotency.core.JsonPointer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The body part of a fingerprint: JSON compared by its RFC 8785 canonical form, anything without
 * one compared byte for byte, and never an exception (contract, section 4).
 */
class CanonicalBodyTests {

	private static final Duration GENEROUS = Duration.ofSeconds(10);

	@Test
	void objectKeyOrderDoesNotMatter() {
		assertSameJson("{\"a\":1,\"b\":{\"x\":true,\"y\":null}}", "{\"b\":{\"y\":null,\"x\":true},\"a\":1}");
	}

	@Test
	void whiteSpaceDoesNotMatter() {
		assertSameJson("{\"a\":[1,2],\"b\":\"c d\"}", " {\n\t\"a\" : [ 1 , 2 ] ,\r\n \"b\":\"c d\" } \n");
	}

	@Test
	void numbersEqualAsDecimalsAreTheSame() {
		String one = json("{\"n\":1}");
		assertThat(json("{\"n\":1.0}")).isEqualTo(one);
		assertThat(json("{\"n\":1e0}")).isEqualTo(one);
		assertThat(json("{\"n\":10E-1}")).isEqualTo(one);
		assertThat(json("{\"n\":1.000}")).isEqualTo(one);
		assertThat(json("{\"n\":0.1E1}")).isEqualTo(one);
		assertSameJson("100", "1e2");
		assertSameJson("-0.5", "-5e-1");
		assertSameJson("0", "-0.0");
	}

	@Test
	void numbersBeyondWhatADoubleHoldsKeepTheirBodiesApart() {
		// As doubles each pair is one number: their canonical forms would be one, so both bodies are
		// compared as bytes, and one client never gets the other's answer.
		assertDifferentJson("{\"id\":9007199254740993}", "{\"id\":9007199254740992}");
		assertDifferentJson("{\"p\":0.10000000000000000001}", "{\"p\":0.1}");
		assertBytes("{\"id\":9007199254740993}");
		assertBytes("{\"p\":0.10000000000000000001}");
		byte[] representable = utf8("{\"id\":9007199254740992}");
		assertThat(json("{\"id\":9007199254740992}")).isNotEqualTo(hash(CanonicalBody.bytes(representable)));
	}

	@Test
	void differentNumbersDiffer() {
		assertDifferentJson("{\"n\":1}", "{\"n\":2}");
		assertDifferentJson("{\"n\":1}", "{\"n\":-1}");
		assertDifferentJson("{\"n\":1}", "{\"n\":1.0000000000000000000001}");
		assertDifferentJson("{\"n\":10}", "{\"n\":1}");
	}

	@Test
	void stringsAndNumbersDiffer() {
		assertDifferentJson("{\"n\":\"1\"}", "{\"n\":1}");
		assertDifferentJson("\"1\"", "1");
		assertDifferentJson("\"true\"", "true");
		assertDifferentJson("\"null\"", "null");
	}

	@Test
	void booleansAndNullDiffer() {
		assertDifferentJson("true", "false");
		assertDifferentJson("false", "null");
		assertDifferentJson("0", "false");
	}

	@Test
	void arraysKeepTheirOrder() {
		assertDifferentJson("[1,2]", "[2,1]");
		assertDifferentJson("{\"a\":[\"x\",\"y\"]}", "{\"a\":[\"y\",\"x\"]}");
	}

	@Test
	void nestingIsPartOfTheMeaning() {
		assertDifferentJson("[[1],2]", "[1,[2]]");
		assertDifferentJson("{\"a\":{\"b\":1}}", "{\"a\":{},\"b\":1}");
		assertDifferentJson("[]", "{}");
	}

	@Test
	void nullMemberDiffersFromMissingMember() {
		assertDifferentJson("{\"a\":1,\"b\":null}", "{\"a\":1}");
	}

	@Test
	void ignoredNestedMemberIsLeftOut() {
		List<JsonPointer> ignored = CanonicalBody.pointers("/metadata/request_id");
		assertThat(json("{\"model\":\"m\",\"metadata\":{\"request_id\":\"r1\",\"user\":\"u\"}}", ignored))
			.isEqualTo(json("{\"model\":\"m\",\"metadata\":{\"request_id\":\"r2\",\"user\":\"u\"}}", ignored))
			.isEqualTo(json("{\"model\":\"m\",\"metadata\":{\"user\":\"u\"}}"));
	}

	@Test
	void ignoredFieldsOnlyRemoveWhatTheyName() {
		List<JsonPointer> ignored = CanonicalBody.pointers("/metadata/request_id");
		assertThat(json("{\"metadata\":{\"request_id\":\"r\",\"user\":\"u1\"}}", ignored))
			.isNotEqualTo(json("{\"metadata\":{\"request_id\":\"r\",\"user\":\"u2\"}}", ignored));
		assertThat(json("{\"request_id\":\"r1\"}", ignored)).isNotEqualTo(json("{\"request_id\":\"r2\"}", ignored));
	}

	@Test
	void ignoredFieldPointerUnescapesSlashAndTilde() {
		List<JsonPointer> ignored = CanonicalBody.pointers("/a~1b", "/m~0n");
		assertThat(json("{\"a/b\":1,\"m~n\":2,\"k\":3}", ignored)).isEqualTo(json("{\"k\":3}"));
		assertThat(json("{\"a/b\":1,\"m~n\":2,\"k\":3}", ignored)).isNotEqualTo(json("{\"a/b\":1,\"m~n\":2,\"k\":3}"));
	}

	@Test
	void ignoredFieldMayNameAnArrayElementMember() {
		List<JsonPointer> ignored = CanonicalBody.pointers("/items/0/ts");
		assertThat(json("{\"items\":[{\"id\":1,\"ts\":5},{\"id\":2,\"ts\":6}]}", ignored))
			.isEqualTo(json("{\"items\":[{\"id\":1,\"ts\":7},{\"id\":2,\"ts\":6}]}", ignored))
			.isNotEqualTo(json("{\"items\":[{\"id\":1,\"ts\":7},{\"id\":2,\"ts\":8}]}", ignored));
	}

	@Test
	void ignoringAnAbsentMemberIsHarmless() {
		List<JsonPointer> ignored = CanonicalBody.pointers("/absent", "/a/absent", "/a/b/c/d", "/list/7", "/s/x");
		String body = "{\"a\":{\"b\":1},\"list\":[1,2],\"s\":\"text\"}";
		assertThat(json(body, ignored)).isEqualTo(json(body));
		assertThat(json("[1,2]", ignored)).isEqualTo(json("[1,2]"));
		assertThat(json("\"scalar\"", ignored)).isEqualTo(json("\"scalar\""));
	}

	@Test
	void invalidPointerIsRefusedWithHelpfulMessage() {
		assertThatIllegalArgumentException().isThrownBy(() -> CanonicalBody.pointers("/ok", "metadata.request_id"))
			.withMessageContaining("'metadata.request_id'")
			.withMessageContaining("JSON Pointer")
			.withMessageContaining("/metadata/request_id");
	}

	@Test
	void duplicateMemberNamesFallBackToBytes() {
		byte[] duplicated = utf8("{\"a\":1,\"a\":2}");
		assertThat(hash(CanonicalBody.json(duplicated, 0, duplicated.length, List.of())))
			.isEqualTo(hash(CanonicalBody.bytes(duplicated)));
		assertThat(json("{\"a\":1,\"a\":2}")).isNotEqualTo(json("{\"a\":2}")).isNotEqualTo(json("{\"a\":1}"));
	}

	@Test
	void trailingTokensFallBackToBytes() {
		byte[] twoValues = utf8("{} {}");
		assertThat(hash(CanonicalBody.json(twoValues, 0, twoValues.length, List.of())))
			.isEqualTo(hash(CanonicalBody.bytes(twoValues)));
		assertThat(json("{} {}")).isNotEqualTo(json("{}"));
		assertThat(json("{}x")).isNotEqualTo(json("{}"));
	}

	@Test
	void invalidUtf8FallsBackToBytes() {
		byte[] invalid = { '{', '"', 'a', '"', ':', '"', (byte) 0xC3, 0x28, '"', '}' };
		assertThat(hash(CanonicalBody.json(invalid, 0, invalid.length, List.of())))
			.isEqualTo(hash(CanonicalBody.bytes(invalid)));
	}

	@Test
	void truncatedJsonFallsBackToBytes() {
		for (String truncated : List.of("{\"a\":", "{\"a\":[1,2", "[", "\"abc", "{\"a\":1,", "tru")) {
			byte[] bytes = utf8(truncated);
			assertThat(hash(CanonicalBody.json(bytes, 0, bytes.length, List.of())))
				.as(truncated)
				.isEqualTo(hash(CanonicalBody.bytes(bytes)));
		}
	}

	@Test
	void emptyJsonBodyIsTheEmptyBody() {
		assertThat(hash(CanonicalBody.json(new byte[0], 0, 0, List.of())))
			.isEqualTo(hash(CanonicalBody.bytes(new byte[0])));
		byte[] blank = utf8("  \n ");
		assertThat(hash(CanonicalBody.json(blank, 0, blank.length, List.of())))
			.isEqualTo(hash(CanonicalBody.bytes(blank)));
	}

	@Test
	void numberBeyondWhatADoubleHoldsMattersNotInAnIgnoredField() {
		List<JsonPointer> ignored = CanonicalBody.pointers("/trace/id");
		assertThat(json("{\"a\":1,\"trace\":{\"id\":9007199254740993}}", ignored))
			.isEqualTo(json("{\"trace\":{\"id\":12345678901234567890123}, \"a\":1.0}", ignored))
			.isEqualTo(json("{\"a\":1,\"trace\":{}}"));
		assertBytes("{\"a\":1,\"trace\":{\"id\":9007199254740993}}");
	}

	@Test
	void deeplyNestedBodiesFallBackToBytesWithoutThrowing() {
		for (String deep : List.of("[".repeat(100_000), "[".repeat(100_000) + "]".repeat(100_000),
				"{\"a\":".repeat(5_000) + "1" + "}".repeat(5_000))) {
			String hash = assertTimeoutPreemptively(GENEROUS, () -> json(deep));
			assertThat(hash).isEqualTo(hash(CanonicalBody.bytes(utf8(deep))));
		}
	}

	@Test
	void numbersBeyondTheDoubleRangeFallBackToBytesWithoutThrowing() {
		for (String number : List.of("1e400", "1e-400", "1e2147483648", "1e-2147483649", "100e2147483647",
				"1e99999999999999999999", "1" + "0".repeat(100_000))) {
			assertThat(assertTimeoutPreemptively(GENEROUS, () -> json("{\"n\":" + number + "}")))
				.as(number)
				.isEqualTo(hash(CanonicalBody.bytes(utf8("{\"n\":" + number + "}"))));
		}
	}

	@Test
	void utf16BodyIsComparedAsBytes() {
		assertBytes(new String("{\"a\":1}".getBytes(StandardCharsets.UTF_16BE), StandardCharsets.ISO_8859_1));
		byte[] utf16 = "{\"a\":1}".getBytes(StandardCharsets.UTF_16);
		assertThat(hash(CanonicalBody.json(utf16, 0, utf16.length, List.of())))
			.isEqualTo(hash(CanonicalBody.bytes(utf16)));
	}

	@Test
	void jsonBodyDiffersFromTheSameBytesHashedAsBytes() {
		byte[] body = utf8("{\"a\":1}");
		assertThat(hash(CanonicalBody.json(body, 0, body.length, List.of())))
			.isNotEqualTo(hash(CanonicalBody.bytes(body)));
	}

	@Test
	void jsonIsReadFromTheGivenSliceOnly() {
		byte[] buffer = utf8("xx{\"a\":1}yy");
		assertThat(hash(CanonicalBody.json(buffer, 2, 7, List.of()))).isEqualTo(json("{\"a\":1}"));
	}

	@Test
	void bytesAreComparedExactly() {
		assertThat(hash(CanonicalBody.bytes(utf8("a b")))).isEqualTo(hash(CanonicalBody.bytes(utf8("a b"))))
			.isNotEqualTo(hash(CanonicalBody.bytes(utf8("a  b"))));
	}

	@Test
	void multipartPartsAreComparedByNameFileNameAndContentInOrder() {
		CanonicalBody.Part file = new CanonicalBody.Part("file", "a.txt", utf8("hello"));
		CanonicalBody.Part purpose = new CanonicalBody.Part("purpose", "", utf8("fine-tune"));
		String original = hash(CanonicalBody.parts(List.of(file, purpose)));
		assertThat(hash(CanonicalBody.parts(List.of(new CanonicalBody.Part("file", "a.txt", utf8("hello")),
				new CanonicalBody.Part("purpose", "", utf8("fine-tune"))))))
			.isEqualTo(original);
		assertThat(hash(CanonicalBody.parts(List.of(purpose, file)))).isNotEqualTo(original);
		assertThat(hash(CanonicalBody.parts(List.of(new CanonicalBody.Part("file", "b.txt", utf8("hello")), purpose))))
			.isNotEqualTo(original);
		assertThat(hash(CanonicalBody.parts(List.of(new CanonicalBody.Part("file", "a.txt", utf8("hellO")), purpose))))
			.isNotEqualTo(original);
		assertThat(hash(CanonicalBody.parts(List.of(new CanonicalBody.Part("doc", "a.txt", utf8("hello")), purpose))))
			.isNotEqualTo(original);
		assertThat(hash(CanonicalBody.parts(List.of(file)))).isNotEqualTo(original);
	}

	@Test
	void multipartPartBoundariesAreUnambiguous() {
		assertThat(hash(CanonicalBody.parts(List.of(new CanonicalBody.Part("ab", "", utf8("c"))))))
			.isNotEqualTo(hash(CanonicalBody.parts(List.of(new CanonicalBody.Part("a", "", utf8("bc"))))));
	}

	@Test
	void multipartBodyDiffersFromNoBody() {
		assertThat(hash(CanonicalBody.parts(List.of()))).isNotEqualTo(hash(CanonicalBody.bytes(new byte[0])));
	}

	private static void assertBytes(String body) {
		byte[] bytes = body.getBytes(StandardCharsets.ISO_8859_1);
		assertThat(hash(CanonicalBody.json(bytes, 0, bytes.length, List.of()))).as(body)
			.isEqualTo(hash(CanonicalBody.bytes(bytes)));
	}

	private static void assertSameJson(String first, String second) {
		assertThat(json(first)).isEqualTo(json(second));
	}

	private static void assertDifferentJson(String first, String second) {
		assertThat(json(first)).isNotEqualTo(json(second));
	}

	private static String json(String body) {
		return json(body, List.of());
	}

	private static String json(String body, List<JsonPointer> ignoreFields) {
		byte[] bytes = utf8(body);
		return hash(CanonicalBody.json(bytes, 0, bytes.length, ignoreFields));
	}

	private static String hash(CanonicalBody body) {
		Hashing hashing = Hashing.sha256();
		body.writeTo(hashing);
		return hashing.hex();
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
