package dev.modelgate.idempotency.core.internal;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

import static dev.modelgate.idempotency.core.internal.CanonicalJsonTests.canonical;
import static org.assertj.core.api.Assertions.assertThat;

/** Generated documents, written in many ways, have one canonical form, and only equal values share it. */
class CanonicalJsonPropertyTests {

	@Property(tries = 1000)
	void oneDocumentWrittenTwoWaysHasOneCanonicalForm(@ForAll long seed) {
		Random random = new Random(seed);
		Object document = document(random, 3);
		String first = write(document, new Random(seed + 1));
		String second = write(document, new Random(seed + 2));
		String canonical = canonical(first);
		assertThat(canonical).as(first).isNotNull().isEqualTo(canonical(second));
		assertThat(canonical(canonical)).isEqualTo(canonical);
	}

	@Property(tries = 3000)
	void aNumberKeepsItsValueOrHasNoCanonicalForm(@ForAll long bits, @ForAll int digits) {
		double value = Double.longBitsToDouble(bits);
		if (!Double.isFinite(value)) {
			return;
		}
		// Java 17's text (sometimes not ECMAScript's), and a rounding to 1 to 20 digits.
		for (String text : List.of(Double.toString(value),
				new BigDecimal(value).round(new java.math.MathContext(1 + Math.floorMod(digits, 20))).toString())) {
			String canonical = canonical(text);
			if (canonical != null) {
				assertThat(new BigDecimal(canonical)).as(text).isEqualByComparingTo(new BigDecimal(text));
				assertThat(Double.parseDouble(canonical)).isEqualTo(Double.parseDouble(text) + 0.0);
				assertThat(canonical(canonical)).isEqualTo(canonical);
			}
		}
	}

	@Property(tries = 3000)
	void anyBytesReadWithoutThrowingAndTheirCanonicalFormIsItsOwn(@ForAll byte[] body) {
		Object tree = CanonicalJson.read(ByteChunks.of(body));
		if (tree != null && CanonicalJson.isExact(tree)) {
			String canonical = canonical(new String(body, java.nio.charset.StandardCharsets.UTF_8));
			assertThat(canonical(canonical)).isEqualTo(canonical);
		}
	}

	/**
	 * A document of objects (member lists), arrays, strings, integers a double holds, decimals of 7
	 * digits, booleans and null.
	 */
	private static Object document(Random random, int depth) {
		int kind = random.nextInt((depth == 0) ? 5 : 7);
		switch (kind) {
			case 0:
				return randomString(random);
			case 1:
				return random.nextLong() >> (11 + random.nextInt(53));
			case 2:
				return BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, random.nextInt(12) - 4);
			case 3:
				return random.nextBoolean();
			case 4:
				return null;
			case 5:
				List<Object> elements = new ArrayList<>();
				for (int i = random.nextInt(4); i > 0; i--) {
					elements.add(document(random, depth - 1));
				}
				return elements;
			default:
				List<Member> members = new ArrayList<>();
				for (int i = random.nextInt(4); i > 0; i--) {
					members.add(new Member(randomString(random) + "#" + i, document(random, depth - 1)));
				}
				return members;
		}
	}

	private static String randomString(Random random) {
		StringBuilder text = new StringBuilder();
		for (int i = random.nextInt(6); i > 0; i--) {
			int kind = random.nextInt(4);
			text.appendCodePoint((kind == 0) ? random.nextInt(0x20) : (kind == 1) ? 0x20 + random.nextInt(0x60)
					: (kind == 2) ? 0xA0 + random.nextInt(0xD700) : 0x10000 + random.nextInt(0xFFFFF));
		}
		return text.toString();
	}

	/** Writes a document with its members in a random order, random white space and spellings. */
	@SuppressWarnings("unchecked")
	private static String write(Object node, Random random) {
		String space = List.of("", " ", "\n\t", "\r\n  ").get(random.nextInt(4));
		if (node instanceof List<?> list && (list.isEmpty() || !(list.get(0) instanceof Member))) {
			List<String> elements = new ArrayList<>();
			list.forEach((element) -> elements.add(write(element, random)));
			return "[" + space + String.join("," + space, elements) + space + "]";
		}
		if (node instanceof List<?> list) {
			List<Member> members = new ArrayList<>((List<Member>) list);
			Collections.shuffle(members, random);
			List<String> written = new ArrayList<>();
			for (Member member : members) {
				written.add(string(member.name(), random) + space + ":" + write(member.value(), random));
			}
			return "{" + space + String.join(space + "," + space, written) + "}";
		}
		if (node instanceof String string) {
			return string(string, random);
		}
		if (node instanceof Long number) {
			List<String> spellings = List.of(number.toString(), number + ".0", number + "e0", (number * 10) + "E-1");
			return spellings.get(random.nextInt(4));
		}
		if (node instanceof BigDecimal number) {
			return random.nextBoolean() ? number.toString() : number.toPlainString();
		}
		return String.valueOf(node);
	}

	private static String string(String text, Random random) {
		StringBuilder json = new StringBuilder("\"");
		text.codePoints().forEach((c) -> {
			if (c < 0x20 || c == '"' || c == '\\' || random.nextInt(4) == 0) {
				for (char unit : Character.toChars(c)) {
					json.append(String.format("\\u%04X", (int) unit));
				}
			}
			else {
				json.appendCodePoint(c);
			}
		});
		return json.append('"').toString();
	}

	private record Member(String name, Object value) {
	}

}
