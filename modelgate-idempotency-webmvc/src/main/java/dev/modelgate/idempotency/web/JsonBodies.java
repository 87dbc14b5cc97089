package dev.modelgate.idempotency.web;

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

import dev.modelgate.idempotency.core.CanonicalBody;
import dev.modelgate.idempotency.core.CanonicalJsonWriter;

/**
 * Reads a JSON request body with Jackson for its fingerprint: object keys in any order, any white
 * space, and numbers equal as decimals give the same fingerprint, and members named by
 * {@code ignoreFields} are left out. A body that does not parse as one JSON value (including
 * duplicate member names, which readers disagree about) is compared byte for byte.
 */
public final class JsonBodies {

	private static final JsonMapper MAPPER = JsonMapper.builder()
		.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
		.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
		.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
		.build();

	private JsonBodies() {
	}

	/**
	 * A JSON body, compared by meaning; falls back to bytes when it is not exactly one valid JSON
	 * value.
	 * @param ignoreFields JSON Pointers of members to leave out
	 */
	public static CanonicalBody canonical(byte[] buffer, int offset, int length, Collection<JsonPointer> ignoreFields) {
		JsonNode tree;
		try {
			tree = MAPPER.readTree(buffer, offset, length);
		}
		catch (JacksonException | NumberFormatException ex) {
			// Jackson reports a number beyond BigDecimal's range (1e2147483648) as NumberFormatException.
			return CanonicalBody.bytes(buffer, offset, length);
		}
		if (tree == null || tree.isMissingNode()) {
			return CanonicalBody.bytes(buffer, offset, length);
		}
		for (JsonPointer pointer : ignoreFields) {
			remove(tree, pointer);
		}
		return CanonicalBody.json((writer) -> write(tree, writer));
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

	private static void write(JsonNode node, CanonicalJsonWriter writer) {
		switch (node.getNodeType()) {
			case OBJECT -> {
				List<Map.Entry<String, JsonNode>> members = new ArrayList<>(node.properties());
				members.sort(Map.Entry.comparingByKey());
				writer.startObject(members.size());
				for (Map.Entry<String, JsonNode> member : members) {
					writer.name(member.getKey());
					write(member.getValue(), writer);
				}
			}
			case ARRAY -> {
				writer.startArray(node.size());
				for (JsonNode element : node) {
					write(element, writer);
				}
			}
			case STRING -> writer.string(node.stringValue());
			case NUMBER -> writer.number(node.decimalValue());
			case BOOLEAN -> writer.bool(node.booleanValue());
			default -> writer.nullValue();
		}
	}

}
