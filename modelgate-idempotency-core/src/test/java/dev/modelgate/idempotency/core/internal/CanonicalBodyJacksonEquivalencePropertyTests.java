package dev.modelgate.idempotency.core.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

import dev.modelgate.idempotency.core.JsonPointer;

import static dev.modelgate.idempotency.core.internal.JacksonEquivalence.assertSameFingerprint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Generated bodies and pointers, each hashed as the Jackson implementation hashed it: well-formed
 * documents in every encoding Jackson detects, arbitrary bytes, and documents damaged byte by byte.
 */
class CanonicalBodyJacksonEquivalencePropertyTests {

	private static final List<String> POINTER_NAMES = List.of("a", "b", "0", "1", "2", "", "a/b", "m~n", "~2", "-", "00");

	@Property(tries = 3000)
	void generatedDocumentsHashAsJacksonHashedThem(@ForAll("documents") String document,
			@ForAll JsonEncoding encoding) {
		byte[] body = encoding.encode(document);
		assertSameFingerprint(body);
		collectOutcome(body);
	}

	@Property(tries = 5000)
	void arbitraryBytesHashAsJacksonHashedThem(@ForAll("jsonishBytes") byte[] body) {
		assertSameFingerprint(body);
		collectOutcome(body);
	}

	@Property(tries = 3000)
	void arbitraryBytesInStringsAndNamesHashAsJacksonHashedThem(@ForAll("jsonishBytes") byte[] content,
			@ForAll boolean name) {
		byte[] body = concat(List.of((name ? "{\"" : "[\"").getBytes(StandardCharsets.UTF_8), content,
				(name ? "\":0}" : "\"]").getBytes(StandardCharsets.UTF_8)));
		assertSameFingerprint(body);
		collectOutcome(body);
	}

	@Property(tries = 3000)
	void damagedDocumentsHashAsJacksonHashedThem(@ForAll("documents") String document, @ForAll JsonEncoding encoding,
			@ForAll("damage") List<Damage> damage) {
		byte[] body = encoding.encode(document);
		for (Damage each : damage) {
			body = each.applyTo(body);
		}
		assertSameFingerprint(body);
		collectOutcome(body);
	}

	@Property(tries = 3000)
	void ignoredFieldsAreRemovedAsJacksonRemovedThem(@ForAll("pointerDocuments") String document,
			@ForAll("pointerLists") List<String> ignoreFields) {
		assertSameFingerprint(JsonEncoding.UTF_8.encode(document), ignoreFields.toArray(String[]::new));
	}

	@Property(tries = 3000)
	void pointersReadAsJacksonReadThem(@ForAll("pointerExpressions") String expression) {
		tools.jackson.core.JsonPointer jackson;
		try {
			jackson = tools.jackson.core.JsonPointer.compile(expression);
		}
		catch (IllegalArgumentException ex) {
			assertThatIllegalArgumentException().isThrownBy(() -> JsonPointer.compile(expression));
			return;
		}
		List<String> tokens = new ArrayList<>();
		List<Integer> indexes = new ArrayList<>();
		for (tools.jackson.core.JsonPointer segment = jackson; !segment.matches(); segment = segment.tail()) {
			tokens.add(segment.getMatchingProperty());
			indexes.add(segment.getMatchingIndex());
		}
		JsonPointer pointer = JsonPointer.compile(expression);
		assertThat(pointer.tokens()).isEqualTo(tokens);
		assertThat(pointer.tokens().stream().map(JsonPointer::index).toList()).isEqualTo(indexes);
		assertThat(pointer).hasToString(jackson.toString());
	}

	/** Shows, in the statistics jqwik prints, how many bodies were read as JSON. */
	private static void collectOutcome(byte[] body) {
		boolean json = !JacksonEquivalence.current(body, 0, body.length)
			.equals(JacksonEquivalence.bytes(body, 0, body.length));
		Statistics.collect(json ? "read as JSON" : "compared as bytes");
	}

	@Provide
	Arbitrary<String> documents() {
		return padded(value(4, name()));
	}

	@Provide
	Arbitrary<String> pointerDocuments() {
		Arbitrary<String> name = Arbitraries.of(POINTER_NAMES).map((each) -> "\"" + each + "\"");
		return padded(Arbitraries.frequencyOf(Tuple.of(3, object(3, name)), Tuple.of(1, array(3, name))));
	}

	@Provide
	Arbitrary<List<String>> pointerLists() {
		Arbitrary<String> token = Arbitraries.frequencyOf(
				Tuple.of(4, Arbitraries.of(POINTER_NAMES).map((name) -> name.replace("~", "~0").replace("/", "~1"))),
				Tuple.of(1, Arbitraries.of("10", "01", "2147483647", "2147483648", "x", "~", "a~", "~3", "a/b", " 1")));
		Arbitrary<String> pointer = token.list()
			.ofMinSize(1)
			.ofMaxSize(4)
			.map((tokens) -> "/" + String.join("/", tokens));
		return Arbitraries.frequencyOf(Tuple.of(12, pointer), Tuple.of(1, Arbitraries.just(""))).list().ofMaxSize(4);
	}

	@Provide
	Arbitrary<String> pointerExpressions() {
		return Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.strings().withChars("/~01a9-").ofMaxLength(12)),
				Tuple.of(2, Arbitraries.strings().withChars("/~0123456789").ofMaxLength(14)),
				Tuple.of(1, Arbitraries.strings().ofMaxLength(8)));
	}

	@Provide
	Arbitrary<byte[]> jsonishBytes() {
		Arbitrary<byte[]> jsonish = Arbitraries.of("{", "}", "[", "]", "\"", ":", ",", "0", "1", "9", "-", "+", ".", "e",
				"E", "\\", "\\u", "u", "D8", "true", "null", " ", "\n", "\"a\"", "\"a\":")
			.map((text) -> text.getBytes(StandardCharsets.UTF_8));
		Arbitrary<byte[]> unusual = Arbitraries.of("00", "1F", "7F", "80", "BF", "C0", "C080", "C3", "C3A9", "E282AC",
				"E28228", "E08080", "EDA080", "EDBFBF", "EF", "EFBBBF", "F09F9880", "F0808080", "F4908080", "F7BFBFBF",
				"F8", "FE", "FF", "FEFF", "FFFE", "0000")
			.map(HexFormat.of()::parseHex);
		Arbitrary<byte[]> any = Arbitraries.bytes().map((b) -> new byte[] { b });
		return Arbitraries.frequencyOf(Tuple.of(6, jsonish), Tuple.of(3, unusual), Tuple.of(1, any))
			.list()
			.ofMaxSize(16)
			.map(CanonicalBodyJacksonEquivalencePropertyTests::concat);
	}

	@Provide
	Arbitrary<List<Damage>> damage() {
		Arbitrary<Damage> damage = Combinators
			.combine(Arbitraries.of(Damage.Kind.class), Arbitraries.doubles().between(0, 1),
					Arbitraries.doubles().between(0, 1), Arbitraries.bytes())
			.as(Damage::new);
		return damage.list().ofMinSize(1).ofMaxSize(3);
	}

	private Arbitrary<String> value(int depth, Arbitrary<String> name) {
		if (depth == 0) {
			return scalar();
		}
		return Arbitraries.frequencyOf(Tuple.of(4, scalar()), Tuple.of(2, Arbitraries.lazy(() -> array(depth - 1, name))),
				Tuple.of(2, Arbitraries.lazy(() -> object(depth - 1, name))));
	}

	private Arbitrary<String> array(int depth, Arbitrary<String> name) {
		return padded(value(depth, name)).list().ofMaxSize(4).map((elements) -> "[" + String.join(",", elements) + "]");
	}

	private Arbitrary<String> object(int depth, Arbitrary<String> name) {
		Arbitrary<String> member = Combinators.combine(padded(name), padded(value(depth, name)))
			.as((memberName, memberValue) -> memberName + ":" + memberValue);
		return member.list().ofMaxSize(4).map((members) -> "{" + String.join(",", members) + "}");
	}

	private Arbitrary<String> padded(Arbitrary<String> text) {
		Arbitrary<String> whiteSpace = Arbitraries.strings().withChars(" \t\r\n").ofMaxLength(2);
		return Combinators.combine(whiteSpace, text, whiteSpace).as((before, value, after) -> before + value + after);
	}

	private Arbitrary<String> name() {
		return Arbitraries.frequencyOf(
				Tuple.of(3, Arbitraries.of("\"a\"", "\"b\"", "\"\"", "\"\\u0061\"", "\"é\"", "\"\\u00e9\"", "\"😀\"",
						"\"\\ud83d\\ude00\"", "\"a/b\"", "\"\\uD800\"", "\"\\uDC00\"", "\"\\uD800\\uDC00\"")),
				Tuple.of(2, string()));
	}

	private Arbitrary<String> scalar() {
		return Arbitraries.frequencyOf(Tuple.of(3, string()), Tuple.of(3, number()),
				Tuple.of(1, Arbitraries.of("true", "false", "null")));
	}

	private Arbitrary<String> string() {
		Arbitrary<String> piece = Arbitraries.frequencyOf(
				Tuple.of(5, Arbitraries.strings()
					.alpha()
					.numeric()
					.withChars(" !#$%&'()*+,-./:;<=>?@[]^_`{|}~")
					.ofMinLength(1)
					.ofMaxLength(4)),
				Tuple.of(2, Arbitraries.integers().between(0x80, 0x10FFFF)
					.filter((codePoint) -> codePoint < 0xD800 || codePoint > 0xDFFF)
					.map(Character::toString)),
				Tuple.of(2, Combinators
					.combine(Arbitraries.chars().range('\u0000', '\uFFFF'), Arbitraries.of("%04x", "%04X"))
					.as((c, format) -> "\\u" + String.format(format, (int) c))),
				Tuple.of(2, Arbitraries.of("\\n", "\\t", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r")),
				Tuple.of(1, Arbitraries.of("\\uD83D\\uDE00", "\\uD800", "\\uDC00", "\\uDBFF\\uDFFF", "\\u0000", "\\uFFFF",
						"\\uD800\\n", "\u007F", "\u0080", "\uFFFF", "\u0130")));
		return piece.list().ofMaxSize(5).map((pieces) -> "\"" + String.join("", pieces) + "\"");
	}

	private Arbitrary<String> number() {
		Arbitrary<String> digits = Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(25);
		Arbitrary<String> integer = Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just("0")),
				Tuple.of(3, digits.filter((text) -> text.charAt(0) != '0')));
		Arbitrary<String> fraction = Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just("")),
				Tuple.of(1, digits.map((text) -> "." + text)));
		Arbitrary<String> exponentDigits = Arbitraries.frequencyOf(
				Tuple.of(3, Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(4)),
				Tuple.of(1, Arbitraries.of("2147483647", "2147483648", "2147483646", "999999999", "21474836470",
						"00000000002147483647", "2147483647999")));
		Arbitrary<String> exponent = Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just("")),
				Tuple.of(1, Combinators.combine(Arbitraries.of("e", "E"), Arbitraries.of("", "+", "-"), exponentDigits)
					.as((e, sign, value) -> e + sign + value)));
		return Combinators.combine(Arbitraries.of("", "-"), integer, fraction, exponent)
			.as((sign, whole, fractional, power) -> sign + whole + fractional + power);
	}

	private static byte[] concat(List<byte[]> chunks) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		chunks.forEach(out::writeBytes);
		return out.toByteArray();
	}

	/** One change to a body, at a position given as a fraction of its length. */
	record Damage(Kind kind, double at, double extent, byte value) {

		enum Kind {

			INSERT, DELETE, REPLACE, TRUNCATE, REPEAT

		}

		byte[] applyTo(byte[] body) {
			int position = (int) (this.at * body.length);
			int end = Math.min(body.length, position + 1 + (int) (this.extent * 8));
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			out.write(body, 0, position);
			switch (this.kind) {
				case INSERT -> out.write(this.value);
				case REPLACE -> {
					if (position < body.length) {
						out.write(this.value);
						position++;
					}
				}
				case DELETE -> position = end;
				case TRUNCATE -> position = body.length;
				case REPEAT -> out.write(body, position, end - position);
			}
			out.write(body, position, body.length - position);
			return out.toByteArray();
		}

	}

}
