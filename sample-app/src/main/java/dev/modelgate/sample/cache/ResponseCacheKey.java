package dev.modelgate.sample.cache;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

import dev.modelgate.sample.ClientIdentity;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Derives the cache key of a request: a hex SHA-256 of the client and the canonical request. The
 * request is compared by meaning (object keys in any order, {@code 0}, {@code 0.0} and {@code 0e0}
 * alike), and the client is the hash of its {@code Authorization} header, so that neither an API
 * key nor a prompt is ever written to the cache's storage in clear.
 */
public final class ResponseCacheKey {

	private ResponseCacheKey() {
	}

	/**
	 * @param authorization the client's {@code Authorization} header, or {@code null}
	 * @param request the chat-completion request
	 * @return the key, 64 hex characters
	 */
	public static String of(String authorization, JsonNode request) {
		MessageDigest digest = sha256();
		digest.update(ClientIdentity.of(authorization).getBytes(StandardCharsets.UTF_8));
		digest.update((byte) '\n');
		digest.update(JsonMapper.shared().writeValueAsBytes(canonical(request)));
		return HexFormat.of().formatHex(digest.digest());
	}

	private static JsonNode canonical(JsonNode node) {
		JsonNodeFactory nodes = JsonNodeFactory.instance;
		if (node.isObject()) {
			Map<String, JsonNode> sorted = new TreeMap<>();
			node.properties().forEach((member) -> sorted.put(member.getKey(), canonical(member.getValue())));
			ObjectNode object = nodes.objectNode();
			sorted.forEach(object::set);
			return object;
		}
		if (node.isArray()) {
			ArrayNode array = nodes.arrayNode();
			node.values().forEach((element) -> array.add(canonical(element)));
			return array;
		}
		if (node.isNumber()) {
			BigDecimal value = node.decimalValue().stripTrailingZeros();
			return nodes.numberNode(value);
		}
		return node;
	}

	private static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every Java platform has SHA-256", ex);
		}
	}

}
