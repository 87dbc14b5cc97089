package dev.modelgate.idempotency.core.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The canonical form of a JSON body is RFC 8785's, or there is none and the body is compared as bytes. */
class CanonicalJsonTests {

	@Test
	void writesTheRfc8785SampleAsTheRfcDoes() {
		// RFC 8785, section 3.2.3 (the input of its figure 1 and its canonical form).
		String input = "{\n  \"numbers\": [333333333.33333329, 1E30, 4.50,\n"
				+ "                2e-3, 0.000000000000000000000000001],\n"
				+ "  \"string\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\",\n"
				+ "  \"literals\": [null, true, false]\n}";
		// 333333333.33333329 is more than its double holds (333333333.3333333): no canonical form here.
		assertThat(canonical(input)).isNull();
		assertThat(canonical(input.replace("333333333.33333329", "333333333.3333333")))
			.isEqualTo("{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
					+ "\"string\":\"\u20ac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}");
	}

	@Test
	void sortsMembersByUtf16CodeUnitsAtEveryLevel() {
		// RFC 8785, section 3.2.3: the sorting example.
		String input = "{\"\\u20ac\":\"Euro Sign\",\"\\r\":\"Carriage Return\","
				+ "\"\\ufb33\":\"Hebrew Letter Dalet With Dagesh\","
				+ "\"1\":\"One\",\"\\ud83d\\ude00\":\"Emoji: Grinning Face\",\"\\u0080\":\"Control\","
				+ "\"\\u00f6\":\"Latin Small Letter O With Diaeresis\",\"n\":{\"b\":1,\"a\":[{\"z\":0,\"y\":0}]}}";
		assertThat(canonical(input)).isEqualTo("{\"\\r\":\"Carriage Return\",\"1\":\"One\","
				+ "\"n\":{\"a\":[{\"y\":0,\"z\":0}],\"b\":1},"
				+ "\"\u0080\":\"Control\",\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\","
				+ "\"\uD83D\uDE00\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}");
	}

	@Test
	void escapesOnlyQuoteBackslashAndControlCharacters() {
		assertThat(canonical("\"\\u0000\\u001f\\b\\t\\n\\f\\r\\\"\\\\\\/\\u007f\\u00e9\\u2028\u00e9\""))
			.isEqualTo("\"\\u0000\\u001f\\b\\t\\n\\f\\r\\\"\\\\/\u007f\u00e9\u2028\u00e9\"");
	}

	@ParameterizedTest
	@CsvSource({
			// RFC 8785, appendix B: IEEE 754 doubles and their text.
			"0000000000000000, 0", "8000000000000000, 0", "0000000000000001, 5e-324", "8000000000000001, -5e-324",
			"7fefffffffffffff, 1.7976931348623157e+308", "ffefffffffffffff, -1.7976931348623157e+308",
			"4340000000000000, 9007199254740992", "c340000000000000, -9007199254740992",
			"4430000000000000, 295147905179352830000", "44b52d02c7e14af5, 9.999999999999997e+22",
			"44b52d02c7e14af6, 1e+23", "44b52d02c7e14af7, 1.0000000000000001e+23",
			"444b1ae4d6e2ef4e, 999999999999999700000", "444b1ae4d6e2ef4f, 999999999999999900000",
			"444b1ae4d6e2ef50, 1e+21", "3eb0c6f7a0b5ed8c, 9.999999999999997e-7", "3eb0c6f7a0b5ed8d, 0.000001",
			"41b3de4355555553, 333333333.3333332", "41b3de4355555554, 333333333.33333325",
			"41b3de4355555555, 333333333.3333333", "41b3de4355555556, 333333333.3333334",
			"41b3de4355555557, 333333333.33333343", "becbf647612f3696, -0.0000033333333333333333",
			"43143ff3c1cb0959, 1424953923781206.2" })
	void writesEachDoubleAsEcmaScriptDoes(String bits, String text) {
		assertThat(Double.parseDouble(text)).isEqualTo(Double.longBitsToDouble(HexFormat.fromHexDigitsToLong(bits)));
		assertThat(canonical(text)).isEqualTo(text);
		assertThat(canonical(text.toUpperCase())).isEqualTo(text);
	}

	@ParameterizedTest
	@CsvSource({ "1, 1", "1.0, 1", "1e0, 1", "10E-1, 1", "0.1E1, 1", "100E-2, 1", "-0, 0", "-0.0, 0", "0e10, 0",
			"1e2, 100", "-5e-1, -0.5", "0.30000000000000004, 0.30000000000000004", "1e21, 1e+21",
			"1E+20, 100000000000000000000",
			"1e-6, 0.000001", "1e-7, 1e-7", "123456789012345e-20, 0.00000123456789012345", "2.0e-3, 0.002",
			"4.50, 4.5", "9007199254740991, 9007199254740991" })
	void writesNumbersByTheirValue(String number, String text) {
		assertThat(canonical(number)).isEqualTo(text);
	}

	@ParameterizedTest
	@ValueSource(strings = {
			// More than a double holds: two bodies would share the double's text.
			"9007199254740993", "0.10000000000000000001", "12345678901234567890123", "295147905179352825856",
			// A double, but not the text ECMAScript writes for it (Java 17 writes these).
			"4.9e-324", "2.82879384806159008E17",
			// No double: infinity, or zero for a number that is not zero.
			"1e400", "-1e400", "1e-400", "1e999999999999", "100e2147483647" })
	void numberWhoseValueIsNotItsTextHasNoCanonicalForm(String number) {
		assertThat(canonical(number)).isNull();
		assertThat(canonical("{\"a\":[1," + number + "]}")).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "{", "{\"a\":1,}", "[1,]", "[,1]", "{\"a\" 1}", "{a:1}", "[01]", "[1.]", "[.5]",
			"[1e]", "[+1]", "[-]", "[NaN]", "[Infinity]", "tru", "nul", "\"a", "\"\\x\"", "\"\\u12g4\"",
			"\"tab\there\"", "{} {}", "{}x", "[1] 2", "{\"a\":1,\"a\":1}", "{\"a\":1,\"\\u0061\":2}", "\"\\ud800\"",
			"\"\\udc00\\ud800\"",
			"\"\\ud83d\"", "\"\\ud83dx\"", "\"\\ud83d\\u0041\"", "'a'", "[1]\u0000" })
	void textThatIsNotExactlyOneJsonValueHasNoCanonicalForm(String text) {
		assertThat(canonical(text)).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "22c380", "22c0af22", "22e08080", "22eda08022", "22f490808022", "22f888808080", "22ff22",
			"efbbbf7b7d", "007b007d", "7b007d00", "fffe7b007d00", "c3a9" })
	void bytesThatAreNotUtf8JsonHaveNoCanonicalForm(String hex) {
		// An unclosed string; overlong, surrogate, past U+10FFFF, 5-byte and invalid sequences; a byte order
		// mark; UTF-16 in both byte orders; non-ASCII outside a string.
		assertThat(read(HexFormat.of().parseHex(hex))).isNull();
	}

	@Test
	void wellFormedUtf8IsKeptAsItIs() {
		byte[] body = HexFormat.of().parseHex("5b22f48fbfbf78efbfbfed9fbfc3a9e282acf09f9880225d");
		assertThat(write(read(body))).isEqualTo(body);
	}

	@Test
	void nestingUpToTheLimitHasACanonicalFormAndDeeperNone() {
		int limit = CanonicalJson.MAX_DEPTH;
		assertThat(canonical("[".repeat(limit) + "]".repeat(limit))).isEqualTo("[".repeat(limit) + "]".repeat(limit));
		assertThat(canonical("[".repeat(limit + 1) + "]".repeat(limit + 1))).isNull();
		assertThat(canonical("{\"a\":".repeat(limit + 1) + "1" + "}".repeat(limit + 1))).isNull();
	}

	@Test
	void hundredThousandOpeningBracketsHaveNoCanonicalFormAndNoStackOverflow() {
		assertThat(canonical("[".repeat(100_000))).isNull();
		assertThat(canonical("[".repeat(100_000) + "]".repeat(100_000))).isNull();
		assertThat(canonical("{\"a\":".repeat(100_000))).isNull();
	}

	@Test
	void canonicalFormIsItsOwnCanonicalForm() {
		String canonical = canonical("{\"b\":[1.0,{\"d\":\"\\u00e9\\n\",\"c\":-0}],\"a\":1e21}");
		assertThat(canonical).isEqualTo("{\"a\":1e+21,\"b\":[1,{\"c\":0,\"d\":\"\u00e9\\n\"}]}");
		assertThat(canonical(canonical)).isEqualTo(canonical);
	}

	static String canonical(String json) {
		Object tree = read(json.getBytes(StandardCharsets.UTF_8));
		return (tree != null && CanonicalJson.isExact(tree)) ? new String(write(tree), StandardCharsets.UTF_8) : null;
	}

	private static Object read(byte[] body) {
		return CanonicalJson.read(ByteChunks.of(body));
	}

	private static byte[] write(Object tree) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		CanonicalJson.write(tree, new CanonicalJson.Output() {
			@Override
			public void write(int b) {
				out.write(b);
			}

			@Override
			public void write(ByteChunks body, int start, int length) {
				for (int i = start; i < start + length; i++) {
					out.write(body.at(i));
				}
			}
		});
		return out.toByteArray();
	}

}
