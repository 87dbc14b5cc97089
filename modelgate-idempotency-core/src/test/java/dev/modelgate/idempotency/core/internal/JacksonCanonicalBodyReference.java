package dev.modelgate.idempotency.core.internal;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonPointer;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;


/**
 * The Jackson 3 based {@code CanonicalBody} this module replaced, kept unchanged but for its name so
 * that tests can prove the replacement hashes every body exactly as fingerprints already stored were
 * hashed.
 */
abstract class JacksonCanonicalBodyReference {

	private static final JsonMapper MAPPER = JsonMapper.builder()
		.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
		.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
		.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
		.build();

	private static final JacksonCanonicalBodyReference EMPTY = bytes(new byte[0]);

	abstract void writeTo(Hashing hashing);

	/** A body with no content. */
	public static JacksonCanonicalBodyReference empty() {
		return EMPTY;
	}

	/** A body compared byte for byte. */
	public static JacksonCanonicalBodyReference bytes(byte[] body) {
		return bytes(body, 0, body.length);
	}

	/** A slice of a buffer compared byte for byte (avoids copying a captured body). */
	public static JacksonCanonicalBodyReference bytes(byte[] buffer, int offset, int length) {
		return new JacksonCanonicalBodyReference() {
			@Override
			void writeTo(Hashing hashing) {
				hashing.tag('B').field(buffer, offset, length);
			}
		};
	}

	/**
	 * A JSON body, compared by meaning; falls back to bytes when it is not exactly one valid JSON
	 * value.
	 * @param ignoreFields JSON Pointers of members to leave out
	 */
	public static JacksonCanonicalBodyReference json(byte[] buffer, int offset, int length,
			Collection<JsonPointer> ignoreFields) {
		JsonNode tree;
		try {
			tree = MAPPER.readTree(buffer, offset, length);
		}
		catch (JacksonException | NumberFormatException ex) {
			// Jackson reports a number beyond BigDecimal's range (1e2147483648) as NumberFormatException.
			return bytes(buffer, offset, length);
		}
		if (tree == null || tree.isMissingNode()) {
			return bytes(buffer, offset, length);
		}
		for (JsonPointer pointer : ignoreFields) {
			remove(tree, pointer);
		}
		return new JacksonCanonicalBodyReference() {
			@Override
			void writeTo(Hashing hashing) {
				hashing.tag('J');
				write(tree, hashing);
			}
		};
	}

	/**
	 * A multipart body, compared part by part in the order received.
	 * @param parts each part's name, file name (or empty) and content bytes
	 */
	public static JacksonCanonicalBodyReference parts(List<Part> parts) {
		return new JacksonCanonicalBodyReference() {
			@Override
			void writeTo(Hashing hashing) {
				hashing.tag('M').length(parts.size());
				for (Part part : parts) {
					hashing.field(part.name()).field(part.fileName()).field(part.content());
				}
			}
		};
	}

	/** Parses JSON Pointers given as strings, failing with a message naming the bad one. */
	public static List<JsonPointer> pointers(String... expressions) {
		List<JsonPointer> pointers = new ArrayList<>(expressions.length);
		for (String expression : expressions) {
			try {
				pointers.add(JsonPointer.compile(expression));
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException("'" + expression + "' is not a JSON Pointer (RFC 6901), "
						+ "write it like /metadata/request_id", ex);
			}
		}
		return pointers;
	}

	private static void remove(JsonNode root, JsonPointer pointer) {
		if (pointer.matches()) {
			return;
		}
		JsonNode parent = root.at(pointer.head());
		if (parent instanceof ObjectNode object) {
			object.remove(pointer.last().getMatchingProperty());
		}
		else if (parent instanceof ArrayNode array && pointer.last().mayMatchElement()) {
			int index = pointer.last().getMatchingIndex();
			if (index < array.size()) {
				array.remove(index);
			}
		}
	}

	private static void write(JsonNode node, Hashing hashing) {
		switch (node.getNodeType()) {
			case OBJECT -> {
				List<Map.Entry<String, JsonNode>> members = new ArrayList<>(node.properties());
				members.sort(Map.Entry.comparingByKey());
				hashing.tag('o').length(members.size());
				for (Map.Entry<String, JsonNode> member : members) {
					hashing.field(member.getKey());
					write(member.getValue(), hashing);
				}
			}
			case ARRAY -> {
				hashing.tag('a').length(node.size());
				for (JsonNode element : node) {
					write(element, hashing);
				}
			}
			case STRING -> hashing.tag('s').field(node.stringValue());
			case NUMBER -> {
				// Unscaled value and scale of the stripped decimal: exact, and short even for 1e999999.
				BigDecimal decimal = node.decimalValue();
				try {
					decimal = decimal.stripTrailingZeros();
				}
				catch (ArithmeticException ex) {
					// Stripping would push the scale past int (100e2147483647): compare it as read.
					hashing.tag('N').field(decimal.toString());
					return;
				}
				hashing.tag('n').field(decimal.unscaledValue().toString()).length(decimal.scale());
			}
			case BOOLEAN -> hashing.tag(node.booleanValue() ? 't' : 'f');
			default -> hashing.tag('z');
		}
	}

	/** One part of a multipart body. */
	public record Part(String name, String fileName, byte[] content) {
	}

}
