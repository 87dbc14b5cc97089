package dev.modelgate.idempotency.core.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static dev.modelgate.idempotency.core.internal.JacksonEquivalence.assertSameFingerprint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Hand-picked bodies on every edge the Jackson based reader had, each hashed as the Jackson
 * implementation hashed it: fingerprints stored before the change must still match.
 */
class CanonicalBodyJacksonEquivalenceTests {

	private static final Duration GENEROUS = Duration.ofSeconds(30);

	@ParameterizedTest(name = "[{index}] {0}")
	@MethodSource("bodies")
	void bodyHashesAsJacksonHashedIt(String description, byte[] body) {
		assertSameFingerprint(body);
	}

	@ParameterizedTest(name = "[{index}] {0}")
	@MethodSource("bodies")
	void bodyInTheMiddleOfABufferHashesAsJacksonHashedIt(String description, byte[] body) {
		// Jackson reads a UTF-16 body of more than 8 KiB from a stream that runs past the end of the
		// slice (its ByteArrayInputStream takes the end offset for a length); callers pass whole arrays.
		if (body.length <= 8192) {
			byte[] buffer = new byte[body.length + 6];
			System.arraycopy(body, 0, buffer, 3, body.length);
			buffer[0] = '[';
			buffer[buffer.length - 1] = '"';
			assertSameFingerprint(buffer, 3, body.length);
		}
	}

	@ParameterizedTest(name = "[{index}] {0} {1}")
	@MethodSource("ignoredFields")
	void ignoredFieldsAreRemovedAsJacksonRemovedThem(String body, List<String> ignoreFields) {
		assertSameFingerprint(utf8(body), ignoreFields.toArray(String[]::new));
	}

	@Test
	void stringsUpToTheLengthLimitAreJsonAndLongerOnesBytes() {
		byte[] longest = quoted(100_000_000);
		byte[] tooLong = quoted(100_000_001);
		assertTimeoutPreemptively(GENEROUS, () -> assertSameFingerprint(longest));
		assertTimeoutPreemptively(GENEROUS, () -> assertSameFingerprint(tooLong));
		assertThat(JacksonEquivalence.current(longest, 0, longest.length))
			.isNotEqualTo(JacksonEquivalence.bytes(longest, 0, longest.length));
		assertThat(JacksonEquivalence.current(tooLong, 0, tooLong.length))
			.isEqualTo(JacksonEquivalence.bytes(tooLong, 0, tooLong.length));
	}

	@Test
	void megabyteBodiesHashWithoutBlowingUp() {
		List<String> bodies = List.of(
				"[" + "{\"key\":\"value\",\"n\":12.5e3,\"t\":true}, ".repeat(25_000) + "null]",
				"\"" + "x".repeat(1_000_000) + "\"",
				"\"" + "\\u00e9\\n\\ud83d\\ude00é".repeat(40_000) + "\"",
				"{" + buildMembers(60_000) + "}",
				"[".repeat(500) + "1,".repeat(300_000) + "1" + "]".repeat(500),
				"[" + ("1".repeat(1000) + ",").repeat(1000) + "0]",
				"[" + "1e999999999,".repeat(90_000) + "0]");
		for (String body : bodies) {
			byte[] bytes = utf8(body);
			assertTimeoutPreemptively(GENEROUS, () -> JacksonEquivalence.current(bytes, 0, bytes.length));
			assertSameFingerprint(bytes);
		}
	}

	@Test
	void hundredThousandOpeningBracketsFallBackToBytes() {
		for (String deep : List.of("[".repeat(100_000), "[".repeat(100_000) + "]".repeat(100_000),
				"{\"a\":".repeat(100_000))) {
			byte[] body = utf8(deep);
			assertThat(assertTimeoutPreemptively(GENEROUS, () -> JacksonEquivalence.current(body, 0, body.length)))
				.isEqualTo(JacksonEquivalence.bytes(body, 0, body.length));
		}
	}

	@Test
	void nameHoldingByteFFIsComparedAsBytesWhereJacksonCouldTakeItForANameSeenBefore() {
		byte[] seen = utf8("{\"a\":1}");
		byte[] lookalike = { '{', '"', (byte) 0xFF, 'a', '"', ':', '1', '}' };
		String seenBefore = JacksonEquivalence.reference(seen, 0, seen.length);
		assertThat(JacksonEquivalence.reference(lookalike, 0, lookalike.length)).isEqualTo(seenBefore);
		assertThat(JacksonEquivalence.current(lookalike, 0, lookalike.length))
			.isEqualTo(JacksonEquivalence.bytes(lookalike, 0, lookalike.length));
	}

	@Test
	void utf16BodyOfMoreThan8KiBIsReadFromItsSliceOnly() {
		byte[] body = JsonEncoding.UTF_16BE_BOM.encode("\"" + "a".repeat(5000) + "\"");
		byte[] buffer = Arrays.copyOf(body, body.length + 2);
		String whole = JacksonEquivalence.current(body, 0, body.length);
		assertThat(JacksonEquivalence.current(buffer, 0, body.length)).isEqualTo(whole);
		// Jackson's stream ran 2 bytes (the BOM's length) past the slice here, into a trailing U+0000.
		assertThat(JacksonEquivalence.reference(buffer, 0, body.length))
			.isNotEqualTo(JacksonEquivalence.reference(body, 0, body.length));
	}

	@Test
	void invalidPointersAreRefusedAsJacksonRefusedThem() {
		for (String expression : List.of("abc", "a/b", " /a", "~0", "#/a")) {
			assertThatIllegalArgumentException().isThrownBy(() -> CanonicalBody.pointers(expression));
			assertThatIllegalArgumentException().isThrownBy(() -> JacksonCanonicalBodyReference.pointers(expression));
		}
	}

	static Stream<Arguments> bodies() {
		List<Arguments> bodies = new ArrayList<>();
		emptyAndWhiteSpace(bodies);
		literals(bodies);
		numbers(bodies);
		strings(bodies);
		names(bodies);
		structure(bodies);
		byteOrderMarksAndEncodings(bodies);
		invalidUtf8(bodies);
		nesting(bodies);
		longNames(bodies);
		tokensAcrossReadBuffers(bodies);
		return bodies.stream();
	}

	private static void emptyAndWhiteSpace(List<Arguments> bodies) {
		for (String text : List.of("", " ", " \n\t\r ", "\u000B", "\f", "\u0000", "\u00A0[]", "[\u2028]", "\u001E[]",
				"[] \r\n")) {
			add(bodies, text);
		}
	}

	private static void literals(List<Arguments> bodies) {
		for (String text : List.of("true", "false", "null", "tru", "nul", "truex", "true false", "[true,false,null]",
				"nulll", "True", "NULL", "NaN", "Infinity", "-Infinity", "+Infinity", "undefined", "[true]", "{\"a\":null}",
				"[nul]", "[truee]", "true,", "true]", "truefalse", "true\u00E9", "[true:1]", "null\u0000")) {
			add(bodies, text);
		}
	}

	private static void numbers(List<Arguments> bodies) {
		for (String text : List.of("0", "-0", "0.0", "-0.0", "0e0", "-0E-0", "1E+2", "1e2", "1E-2", "100", "1.5e3", "01",
				"-01", "00", "1.", ".5", "-.5", "+1", "1e", "1e+", "1e-", "--1", "-", "-a", "0x10", "1_000", "1.2.3",
				"1e2e3", "12345678901234567890", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
				"-9223372036854775809", "2147483647", "2147483648", "-2147483648", "-2147483649", "999999999",
				"1000000000", "1e999999999", "10e999999998", "1e-999999999", "0.1e-999999998", "1e2147483647",
				"1e2147483648", "1e-2147483647", "1e-2147483648", "0.01e-2147483647", "0.01e-2147483646",
				"100e2147483647", "10e2147483647", "-100e2147483647", "1e99999999999999999999", "0.1e2147483647999",
				"0.1e2147483648", "1.0e-2147483647", "0e2147483648", "0e-2147483648", "0.0e2147483647", "1E2147483647",
				"0.000e-2147483647", "12.5e-2147483646", "1e00000000000000000005", "1e-00000000002147483648",
				"123456789012345678901234567890e-2147483640", "1.5e0000", "[1e2147483647,100e2147483647]",
				"{\"n\":100e2147483647,\"a\":1}", "1x", "1 x", "1]", "[1 ]", "[1x]", "1\u0000", "1/", "[-]", "[1,-]",
				"0.1", "0.10", "1.000", "-1.5E+300", "3.141592653589793238462643383279502884197169399375105820974944")) {
			add(bodies, text);
		}
		String digits = "1234567890".repeat(101);
		add(bodies, digits.substring(0, 1000));
		add(bodies, digits.substring(0, 1001));
		add(bodies, "-" + digits.substring(0, 1000));
		add(bodies, "-" + digits.substring(0, 1001));
		add(bodies, digits.substring(0, 999) + ".5");
		add(bodies, digits.substring(0, 1000) + ".5");
		add(bodies, digits.substring(0, 500) + "." + digits.substring(0, 500));
		add(bodies, digits.substring(0, 500) + "." + digits.substring(0, 501));
		add(bodies, "1e" + "0".repeat(998) + "5");
		add(bodies, "1e" + "0".repeat(999) + "5");
		add(bodies, "1." + "0".repeat(997) + "e5");
		add(bodies, "1." + "0".repeat(998) + "e5");
		add(bodies, "0." + "0".repeat(997) + "1");
		add(bodies, "[" + digits.substring(0, 1000) + "]");
		add(bodies, "{\"n\":" + digits.substring(0, 1001) + "}");
	}

	private static void strings(List<Arguments> bodies) {
		for (String text : List.of("\"\"", "\"abc\"", "\"\\u0000\"", "\"\\uD83D\\uDE00\"", "\"\\ud83d\\ude00\"", "\"\\uD800\"",
				"\"\\uDC00\"", "\"\\uDBFF\"", "\"\\ud800x\"", "\"\\uDC00\\uD800\"", "\"?\"", "\"\\uZZZZ\"", "\"\\u12\"",
				"\"\\u12G4\"", "\"\\x\"", "\"\\'\"", "\"\\a\"", "\"\\U0041\"", "\"a\tb\"", "\"a\nb\"", "\"\u001F\"",
				"\"\u007F\"", "\"\u0080\"", "\"é\"", "\"😀\"", "\"\\\"\"", "\"\\/\"", "\"\\\\\"", "\"\\b\\f\\n\\r\\t\"",
				"\"abc", "\"\\", "\"\\u00", "\"\\u00e", "\"a\"\"b\"", "[\"a\" \"b\"]", "\"\\u00e9\" ", "\"\uFFFF\"",
				"\"\uFFFE\"", "\"\\uFFFF\"", "\"\\uFEFF\"", "\"\uFEFF\"", "\"\\u0041\\u0062\"", "\"\\uD834\\uDD1E\"",
				"[\"\\uD800\",\"?\"]", "{\"a\":\"\\uDFFF\"}")) {
			add(bodies, text);
		}
		add(bodies, "\"" + "é😀\\n".repeat(3000) + "\"");
	}

	private static void names(List<Arguments> bodies) {
		for (String text : List.of("{\"\\uD800\":1}", "{\"\\uDC00\":1}", "{\"\\uD800\\uDC00\":1}", "{\"\\uD800\\n\":1}",
				"{\"\\uD800x\":1}", "{\"\\uD800\\u0041\":1}", "{\"\\uD800\\uD800\":1}", "{\"\\uD800\"}", "{\"\\uD800\\",
				"{\"\\uDBFF\\uDFFF\":1}", "{\"\":1}", "{\"\\u0000\":1,\"\":2}", "{\"a\":1,\"a\\u0000\":2}",
				"{\"é\":1,\"\\u00e9\":2}", "{\"\\u00e9\":1,\"\\u00E9\":2}", "{\"a\":1,\"b\":2}",
				"{\"b\":1,\"a\":2,\"B\":3,\"é\":4,\"😀\":5,\"\uFFFF\":6,\"\uD7FF\":7,\"\":8}", "{\"\\\"\":1,\"\\\\\":2}",
				"{\"a\tb\":1}", "{\"a\\tb\":1}", "{\"\u007F\":1}", "{\"a\" :1 ,\"b\" : 2}", "{\"\\u12\":1}",
				"{\"\\uD83D\\uDE00\":1,\"😀\":2}", "{\"abcdefghijklmnopqrstuvwxyz\":1,\"abcdefghijklmnopqrstuvwxy\":2}",
				"{\"12345678901234567\":{\"1234\":[]}}")) {
			add(bodies, text);
		}
	}

	private static void structure(List<Arguments> bodies) {
		for (String text : List.of("{}", "[]", "{ }", "[ ]", "{", "}", "[", "]", "[1,]", "[,1]", "[,]", "{\"a\":1,}", "{,}",
				"{\"a\"}", "{\"a\":}", "{\"a\" 1}", "{a:1}", "{'a':1}", "['a']", "[1 2]", "{\"a\":1 \"b\":2}", "[]]",
				"[[]", "{}}", "{} {}", "{}x", "[] ", "/*c*/[]", "[]//c", "# c\n[]", "[1]\u0000", "[1];", "{\"a\":1,\"a\":1}",
				"{\"a\":{\"b\":1,\"b\":2}}", "[{\"a\":1},{\"a\":1}]", "{\"a\":{},\"a\":[]}", "{\"a\":1,\"b\":{\"a\":2}}",
				"{\"a\"::1}", "{\"a\":1:}", "[1:2]", "{\"a\",1}", "{\"a\":1]", "[1}", "{\"x\":[1,{\"y\":[]}]}",
				"[[],[[]],{},{\"\":{}}]", "{\"a\":1}\n\n", "\n{\"a\":1}", "[\"a\",]", "{\"a\":[}")) {
			add(bodies, text);
		}
	}

	private static void byteOrderMarksAndEncodings(List<Arguments> bodies) {
		for (String hex : List.of("EFBBBF7B7D", "EFBBBF", "EFBBBF20", "EFBBBF31", "EFBBBFEFBBBF31", "20EFBBBF31", "EFBB31",
				"EFBB3131", "FEFF0031", "FFFE3100", "0000FEFF00000031", "FFFE000031000000", "0000FFFE00000031",
				"FEFF000031000000", "0000FFFE", "FEFF0000", "00310000", "00003100", "3100", "0031", "31000000", "00000031",
				"000000", "00000000", "0031002C", "31002C00", "5B005D00", "005B005D", "0000005B0000005D", "5B0000005D000000",
				"00", "31", "0031FF", "3100FF", "00000031000000", "0000003100", "000000310000", "0000FEFF", "FFFE0000",
				"FEFF", "FFFE", "FEFF00", "FFFE31", "0000110000000031", "0022D83D0022", "2200D83D2200", "0022DE000022",
				"0022D83DDE000022", "0022D83D00410022", "00220041D8000022", "FEFFFEFF0031", "FFFEFFFE3100",
				"0000002200110000", "00000022000000D800000022", "000000220010FFFF00000022", "00000022FFFFFFFF00000022",
				"220000000000D800220000000000000000000000")) {
			bodies.add(Arguments.of("hex " + hex, HexFormat.of().parseHex(hex)));
		}
		for (JsonEncoding encoding : JsonEncoding.values()) {
			for (String text : List.of("[1]", "{\"a\":[true,\"é😀\",-0.5e3]}", "1", "\"\"", " ", "",
					"{\"\\uD800\":1}", "{\"\\uDC00\":\"\\uDC00\"}", "\"\\u0130\u0130\u0131\u0141\"", "\"\\u\u0130\u0131\u0132\u0133\"",
					"{\"\\u0161\u0161\u0161\u0161\":1}", "[1,2]x", "{\"a\":1,\"a\":2}", "\"\u0000\"")) {
				bodies.add(Arguments.of(encoding + " " + text, encoding.encode(text)));
			}
		}
		// UTF32Reader fills the 4000 chars Jackson asks for at a time; a pair split between two reads
		// comes out wrong, or goes missing when the code point's low 16 bits are zero.
		for (JsonEncoding encoding : List.of(JsonEncoding.UTF_32BE, JsonEncoding.UTF_32LE_BOM)) {
			for (int padding : new int[] { 3997, 3998, 3999, 7998 }) {
				for (int codePoint : new int[] { 0x1F600, 0x10000, 0x20000, 0x10FFFF }) {
					String text = "\"" + "a".repeat(padding) + Character.toString(codePoint) + "\"";
					bodies.add(Arguments.of(encoding + " split U+" + Integer.toHexString(codePoint) + " at " + padding,
							encoding.encode(text)));
					String name = "{\"" + "a".repeat(padding - 1) + Character.toString(codePoint) + "\":1}";
					bodies.add(Arguments.of(encoding + " split name U+" + Integer.toHexString(codePoint) + " at " + padding,
							encoding.encode(name)));
				}
			}
		}
		// Jackson decodes UTF-16 of more than 8 KiB from a stream, less from a String.
		for (JsonEncoding encoding : List.of(JsonEncoding.UTF_16BE, JsonEncoding.UTF_16LE_BOM)) {
			for (int padding : new int[] { 4093, 4094, 4095, 4096, 4097 }) {
				byte[] text = encoding.encode("\"" + "a".repeat(padding) + "\"");
				for (int at : new int[] { text.length - 4, text.length - 3, text.length - 2 }) {
					bodies.add(Arguments.of(encoding + " malformed at " + at + " of " + text.length,
							withSurrogateAt(text, at, encoding == JsonEncoding.UTF_16BE)));
				}
				bodies.add(Arguments.of(encoding + " odd length " + (text.length + 1), append(text, (byte) ' ')));
			}
		}
	}

	private static void invalidUtf8(List<Arguments> bodies) {
		List<String> sequences = List.of("C328", "80", "BF", "C080", "C1BF", "C2", "C2C2", "E08080", "E09FBF", "EDA080",
				"EDBFBF", "EE8080", "EF", "EFBF", "E282", "E282AC", "F0808080", "F08FBFBF", "F0908080", "F4908080",
				"F7BFBFBF", "F888808080", "FC8480808080", "FE", "FF", "F09F98", "F09F9880", "C3A9", "E282ACC3",
				"5C75303041", "5CC3A9", "5C75C3A930303030");
		for (String sequence : sequences) {
			byte[] bytes = HexFormat.of().parseHex(sequence);
			bodies.add(Arguments.of("value " + sequence, concat(utf8("\""), bytes, utf8("\""))));
			bodies.add(Arguments.of("name " + sequence, concat(utf8("{\""), bytes, utf8("\":1}"))));
			bodies.add(Arguments.of("long name " + sequence,
					concat(utf8("{\"abcdefghijklmnop"), bytes, utf8("qrstuvwxyz\":1}"))));
			bodies.add(Arguments.of("bare " + sequence, concat(utf8("["), bytes, utf8("]"))));
		}
	}

	private static void nesting(List<Arguments> bodies) {
		for (int depth : new int[] { 499, 500, 501 }) {
			add(bodies, "[".repeat(depth) + "]".repeat(depth));
			add(bodies, "{\"a\":".repeat(depth) + "1" + "}".repeat(depth));
			add(bodies, "{\"a\":".repeat(depth - 1) + "{}" + "}".repeat(depth - 1));
			add(bodies, "[".repeat(depth - 1) + "{\"a\":[]}" + "]".repeat(depth - 1));
			add(bodies, "[{\"a\":".repeat(depth / 2) + "0" + "}]".repeat(depth / 2));
			add(bodies, "[".repeat(depth));
		}
		add(bodies, "[".repeat(5000) + "]".repeat(5000));
		add(bodies, "{\"a\":".repeat(5000) + "1" + "}".repeat(5000));
		add(bodies, "[".repeat(5000));
	}

	private static void longNames(List<Arguments> bodies) {
		for (int length : new int[] { 50_000, 50_001 }) {
			add(bodies, "{\"" + "a".repeat(length) + "\":1}");
			add(bodies, "{\"" + "a".repeat(length - 2) + "é\":1}");
			add(bodies, "{\"" + "a".repeat(length - 6) + "\\u00e9\":1}");
			add(bodies, "{\"" + "\\u20ac".repeat(length / 3) + "a".repeat(length % 3) + "\":1}");
			add(bodies, "{\"" + "\\ud83d\\ude00".repeat(length / 4) + "a".repeat(length % 4) + "\":1}");
			add(bodies, "{\"" + "a".repeat(length - 4) + "😀\":1}");
			add(bodies, "\"" + "a".repeat(length) + "\"");
			bodies.add(Arguments.of("UTF-16 name of " + length + " chars",
					JsonEncoding.UTF_16BE.encode("{\"" + "é".repeat(length) + "\":1}")));
		}
		// In UTF-8 Jackson counts name bytes, in UTF-16 chars: 16 667 euro signs are 50 001 bytes.
		add(bodies, "{\"" + "€".repeat(16_667) + "\":1}");
		add(bodies, "{\"" + "€".repeat(16_666) + "ab\":1}");
		bodies.add(Arguments.of("UTF-16 16667 euro signs", JsonEncoding.UTF_16LE.encode("{\"" + "€".repeat(16_667) + "\":1}")));
	}

	private static void tokensAcrossReadBuffers(List<Arguments> bodies) {
		// Jackson reads UTF-16 and UTF-32 through a Reader, 4000 chars at a time.
		for (JsonEncoding encoding : List.of(JsonEncoding.UTF_16LE, JsonEncoding.UTF_32BE)) {
			for (String token : List.of("-12.5e+3", "0", "-0.0", "1e", "true", "nul", "\"ab\\u00e9\\n\"", "{\"name\":1}",
					"{\"a\\u0062\":[]}", "[1,2]")) {
				for (int padding = 3990; padding <= 4000; padding++) {
					String text = "[" + " ".repeat(padding) + token + "]";
					bodies.add(Arguments.of(encoding + " " + token + " at " + padding, encoding.encode(text)));
				}
			}
		}
	}

	static Stream<Arguments> ignoredFields() {
		String document = "{\"a\":{\"b\":1,\"c\":[10,20,30]},\"\":{\"\":2},\"0\":[1,2],\"a/b\":3,\"m~n\":4,\"~2\":5,"
				+ "\"a~\":6,\"list\":[[1,2],[3],{\"0\":7,\"-\":8}],\"items\":[{\"id\":1,\"ts\":5},{\"id\":2,\"ts\":6}],"
				+ "\"2147483647\":9,\"n\":null,\"s\":\"text\"}";
		List<List<String>> pointerLists = List.of(List.of(), List.of(""), List.of("/"), List.of("//"), List.of("/a"),
				List.of("/a/b"), List.of("/a/c/0"), List.of("/a/c/2"), List.of("/a/c/3"), List.of("/a/c/-"),
				List.of("/a/c/00"), List.of("/a/c/01"), List.of("/a/c/ 1"), List.of("/a/c/+1"), List.of("/a/c/1e0"),
				List.of("/a/c/0", "/a/c/0"), List.of("/a/c/0", "/a/c/0", "/a/c/0", "/a/c/0"), List.of("/0"),
				List.of("/0/0"), List.of("/0/1", "/0/0"), List.of("/a~1b"), List.of("/m~0n"), List.of("/~2"),
				List.of("/a~"), List.of("/a~/b"), List.of("/~01"), List.of("/~10"), List.of("/2147483647"),
				List.of("/list/2/0"), List.of("/list/2/-"), List.of("/list/0/1", "/list/0/0"), List.of("/list/1/0/x"),
				List.of("/items/0/ts"), List.of("/items/1/ts", "/items/0"), List.of("/items/2147483647"),
				List.of("/items/2147483648"), List.of("/items/4294967296"), List.of("/items/99999999999"),
				List.of("/n"), List.of("/n/x"), List.of("/s"), List.of("/s/0"), List.of("/absent", "/a/absent", "/a/b/c/d"),
				List.of("/a", "/a/b"), List.of("/a/b", "/a"), List.of("/", "//", "/a"));
		List<String> documents = List.of(document, "[[1,2],{\"0\":1},3]", "\"scalar\"", "[1,2,3]", "{}", "[]", "null",
				"{\"\":{\"\":{\"\":1}}}");
		List<Arguments> arguments = new ArrayList<>();
		for (String body : documents) {
			for (List<String> pointers : pointerLists) {
				arguments.add(Arguments.of(body, pointers));
			}
		}
		return arguments.stream();
	}

	private static String buildMembers(int count) {
		StringBuilder members = new StringBuilder();
		for (int i = 0; i < count; i++) {
			members.append("\"member").append(count - i).append("\":[").append(i).append("],");
		}
		return members.append("\"last\":0").toString();
	}

	private static byte[] withSurrogateAt(byte[] text, int at, boolean bigEndian) {
		byte[] copy = text.clone();
		copy[at] = (byte) (bigEndian ? 0xD8 : 0x00);
		copy[at + 1] = (byte) (bigEndian ? 0x00 : 0xD8);
		return copy;
	}

	private static byte[] quoted(int length) {
		byte[] body = new byte[length + 2];
		Arrays.fill(body, (byte) 'a');
		body[0] = '"';
		body[body.length - 1] = '"';
		return body;
	}

	private static byte[] append(byte[] bytes, byte last) {
		return concat(bytes, new byte[] { last });
	}

	private static byte[] concat(byte[]... parts) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		for (byte[] part : parts) {
			out.writeBytes(part);
		}
		return out.toByteArray();
	}

	private static void add(List<Arguments> bodies, String text) {
		String description = (text.length() > 60) ? text.substring(0, 60) + "... (" + text.length() + " chars)" : text;
		bodies.add(Arguments.of(description, utf8(text)));
	}

	private static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
