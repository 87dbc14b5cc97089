package dev.modelgate.sample.provider;

import java.time.Clock;
import java.time.Duration;
import java.util.UUID;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

/**
 * Answers without any upstream, so the gateway runs offline: the reply echoes the last user message,
 * whole or streamed word by word. The text is deterministic, but every answer gets a fresh {@code id}
 * and {@code created}, which makes a replayed or cached answer visibly the same one and a new request
 * visibly a new one.
 */
public class MockChatCompletionProvider implements ChatCompletionProvider {

	private final JsonMapper jsonMapper;

	private final Clock clock;

	private final Duration chunkDelay;

	/**
	 * @param jsonMapper writes the answers
	 * @param clock gives {@code created}
	 * @param chunkDelay the pause before each word of a streamed reply
	 */
	public MockChatCompletionProvider(JsonMapper jsonMapper, Clock clock, Duration chunkDelay) {
		this.jsonMapper = jsonMapper;
		this.clock = clock;
		this.chunkDelay = chunkDelay;
	}

	@Override
	public ProviderResponse complete(ObjectNode request) {
		String prompt = lastUserText(request.path("messages"));
		String reply = reply(prompt);
		ObjectNode completion = this.jsonMapper.createObjectNode();
		completion.put("id", newId());
		completion.put("object", "chat.completion");
		completion.put("created", this.clock.instant().getEpochSecond());
		completion.put("model", request.path("model").asString());
		ObjectNode choice = completion.putArray("choices").addObject();
		choice.put("index", 0);
		choice.putObject("message").put("role", "assistant").put("content", reply);
		choice.put("finish_reason", "stop");
		completion.set("usage", usage(prompt, reply));
		HttpHeaders headers = new HttpHeaders();
		headers.setContentType(MediaType.APPLICATION_JSON);
		return new ProviderResponse(HttpStatus.OK, headers, this.jsonMapper.writeValueAsBytes(completion));
	}

	@Override
	public StreamStart stream(ObjectNode request) {
		MockChunkStream.Completion completion = new MockChunkStream.Completion(newId(),
				this.clock.instant().getEpochSecond(), request.path("model").asString());
		String prompt = lastUserText(request.path("messages"));
		String reply = reply(prompt);
		// As OpenAI does, the usage comes in a last chunk of its own, and only when asked for.
		boolean includeUsage = request.path("stream_options").path("include_usage").asBoolean(false);
		return new StreamStart.Streaming(new MockChunkStream(this.jsonMapper, completion, reply,
				includeUsage ? usage(prompt, reply) : null, this.chunkDelay));
	}

	private ObjectNode usage(String prompt, String reply) {
		int promptTokens = words(prompt);
		int completionTokens = words(reply);
		return this.jsonMapper.createObjectNode()
			.put("prompt_tokens", promptTokens)
			.put("completion_tokens", completionTokens)
			.put("total_tokens", promptTokens + completionTokens);
	}

	private static String reply(String prompt) {
		return "Echo: " + prompt;
	}

	private static String newId() {
		return "chatcmpl-mock-" + UUID.randomUUID().toString().replace("-", "");
	}

	private static String lastUserText(JsonNode messages) {
		String text = "";
		for (JsonNode message : messages) {
			if ("user".equals(message.path("role").asString(""))) {
				text = text(message.path("content"));
			}
		}
		return text;
	}

	/** Content is either a string or, in the multi-part form, an array of typed parts. */
	private static String text(JsonNode content) {
		if (!content.isArray()) {
			return content.asString("");
		}
		StringBuilder text = new StringBuilder();
		for (JsonNode part : (ArrayNode) content) {
			if ("text".equals(part.path("type").asString(""))) {
				text.append(part.path("text").asString(""));
			}
		}
		return text.toString();
	}

	/** A rough token count: enough for a plausible {@code usage} block. */
	private static int words(String text) {
		String trimmed = text.strip();
		return trimmed.isEmpty() ? 0 : trimmed.split("\\s+").length;
	}

}
