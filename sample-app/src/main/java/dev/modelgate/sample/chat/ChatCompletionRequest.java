package dev.modelgate.sample.chat;

import java.util.function.Predicate;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A chat-completion request checked for what the gateway itself relies on ({@code model},
 * {@code messages}, {@code stream}, {@code temperature}); everything else, unknown members included,
 * is left for the provider to judge and forwarded untouched.
 */
public final class ChatCompletionRequest {

	private final ObjectNode body;

	private ChatCompletionRequest(ObjectNode body) {
		this.body = body;
	}

	/**
	 * @param body the parsed request body
	 * @return the request
	 * @throws InvalidChatRequestException when the body is not a usable chat-completion request
	 */
	public static ChatCompletionRequest of(JsonNode body) {
		if (!(body instanceof ObjectNode object)) {
			throw new InvalidChatRequestException("invalid_body", "The request body must be a JSON object.");
		}
		JsonNode model = object.path("model");
		if (!model.isString() || model.stringValue().isBlank()) {
			throw new InvalidChatRequestException("invalid_model", "'model' is required and must be a non-empty string.");
		}
		if (!hasMessages(object.path("messages"))) {
			throw new InvalidChatRequestException("invalid_messages",
					"'messages' is required and must be a non-empty array of objects, each with a string 'role'.");
		}
		if (!isAbsentOr(object.path("stream"), JsonNode::isBoolean)) {
			throw new InvalidChatRequestException("invalid_stream", "'stream' must be a boolean.");
		}
		if (!isAbsentOr(object.path("temperature"), ChatCompletionRequest::isFiniteNumber)) {
			throw new InvalidChatRequestException("invalid_temperature", "'temperature' must be a finite number.");
		}
		return new ChatCompletionRequest(object);
	}

	/** The request as received, to forward. */
	public ObjectNode body() {
		return this.body;
	}

	public boolean isStream() {
		return this.body.path("stream").asBoolean(false);
	}

	/**
	 * Whether the client asked for the deterministic answer: {@code temperature} present and exactly
	 * zero, however it is written.
	 */
	public boolean isDeterministic() {
		JsonNode temperature = this.body.path("temperature");
		return temperature.isNumber() && temperature.decimalValue().signum() == 0;
	}

	private static boolean hasMessages(JsonNode messages) {
		if (!messages.isArray() || messages.isEmpty()) {
			return false;
		}
		for (JsonNode message : messages) {
			if (!message.isObject() || !message.path("role").isString()) {
				return false;
			}
		}
		return true;
	}

	/**
	 * JSON allows {@code 1e999999}, which reads as an infinite double: no temperature at all. Integers
	 * and decimals of any size are finite (and a huge integer has no double value to ask for).
	 */
	private static boolean isFiniteNumber(JsonNode node) {
		return node.isNumber() && (node.isIntegralNumber() || node.isBigDecimal() || Double.isFinite(node.doubleValue()));
	}

	private static boolean isAbsentOr(JsonNode node, Predicate<JsonNode> valid) {
		return node.isMissingNode() || node.isNull() || valid.test(node);
	}

}
