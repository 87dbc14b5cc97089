package dev.modelgate.sample.provider;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import tools.jackson.core.JacksonException;
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
 *
 * <p>A whole (not streamed) request that offers {@code tools} plays an agent's model: it calls the tools
 * offered one per answer, in the order offered (an assistant message with one {@code tool_calls} entry,
 * finish reason {@code tool_calls}), and once every tool has been called since the last user message, it
 * answers in text naming each tool's result. Each argument of a call is the value of the user message's
 * line {@code <argument>: <value>}, or the whole message when it has no such line.
 */
public class MockChatCompletionProvider implements ChatCompletionProvider {

	private final JsonMapper jsonMapper;

	private final Clock clock;

	private final Duration chunkDelay;

	private final AtomicInteger completions = new AtomicInteger();

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

	/** How many whole answers the mock gave since it started: the model calls an agent made, for example. */
	public int completions() {
		return this.completions.get();
	}

	@Override
	public ProviderResponse complete(ObjectNode request) {
		this.completions.incrementAndGet();
		JsonNode messages = request.path("messages");
		String prompt = lastUserText(messages);
		ObjectNode completion = this.jsonMapper.createObjectNode();
		completion.put("id", newId());
		completion.put("object", "chat.completion");
		completion.put("created", this.clock.instant().getEpochSecond());
		completion.put("model", request.path("model").asString());
		ObjectNode choice = completion.putArray("choices").addObject();
		choice.put("index", 0);
		ObjectNode message = choice.putObject("message").put("role", "assistant");
		JsonNode tools = request.path("tools");
		int called = toolCallsSinceLastUserMessage(messages);
		String reply;
		if (tools.isArray() && called < tools.size()) {
			JsonNode function = tools.get(called).path("function");
			reply = "";
			message.putNull("content");
			ObjectNode call = message.putArray("tool_calls").addObject();
			call.put("id", "call_" + UUID.randomUUID().toString().replace("-", ""));
			call.put("type", "function");
			call.putObject("function")
				.put("name", function.path("name").asString())
				.put("arguments", arguments(function.path("parameters"), prompt));
			choice.put("finish_reason", "tool_calls");
		}
		else {
			reply = (tools.isArray() && !tools.isEmpty()) ? toolResultsAnswer(messages) : reply(prompt);
			message.put("content", reply);
			choice.put("finish_reason", "stop");
		}
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

	/** The arguments of a tool call as the JSON string OpenAI sends: each from the prompt's line of its name. */
	private String arguments(JsonNode parameters, String prompt) {
		ObjectNode arguments = this.jsonMapper.createObjectNode();
		for (String name : parameters.path("properties").propertyNames()) {
			arguments.put(name, line(prompt, name));
		}
		return this.jsonMapper.writeValueAsString(arguments);
	}

	private static String line(String prompt, String name) {
		String prefix = name + ":";
		for (String line : prompt.split("\\R")) {
			if (line.startsWith(prefix)) {
				return line.substring(prefix.length()).strip();
			}
		}
		return prompt;
	}

	/** How many tools the model asked for since the user last spoke: the next one to call is the next offered. */
	private static int toolCallsSinceLastUserMessage(JsonNode messages) {
		int calls = 0;
		for (JsonNode message : messages) {
			String role = message.path("role").asString("");
			if ("user".equals(role)) {
				calls = 0;
			}
			else if ("assistant".equals(role) && message.path("tool_calls").isArray()) {
				calls += message.path("tool_calls").size();
			}
		}
		return calls;
	}

	/** The final answer of an agent's conversation: every tool result since the last user message, in order. */
	private String toolResultsAnswer(JsonNode messages) {
		List<String> results = new ArrayList<>();
		for (JsonNode message : messages) {
			String role = message.path("role").asString("");
			if ("user".equals(role)) {
				results.clear();
			}
			else if ("tool".equals(role)) {
				results.add(unquoted(text(message.path("content"))));
			}
		}
		return "Done: " + String.join("; ", results) + ".";
	}

	/** Spring AI sends a tool's result as JSON: a string result arrives quoted. */
	private String unquoted(String result) {
		try {
			JsonNode value = this.jsonMapper.readTree(result);
			return value.isString() ? value.asString() : result;
		}
		catch (JacksonException ex) {
			return result;
		}
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
