package dev.modelgate.sample.provider;

import java.time.Clock;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The mock provider as an agent's model: it calls the tools it is offered one per answer, in the order
 * offered, with arguments from the user message's lines, then answers naming their results.
 */
class MockProviderToolCallTests {

	private static final JsonMapper json = JsonMapper.shared();

	private static final String TOOLS = """
			[{"type":"function","function":{"name":"send_email","parameters":{"type":"object",
			  "properties":{"to":{"type":"string"},"text":{"type":"string"}}}}},
			 {"type":"function","function":{"name":"create_ticket","parameters":{"type":"object",
			  "properties":{"title":{"type":"string"}}}}}]""";

	private static final String USER = """
			{"role":"user","content":"Do it\\nto: ops@example.com\\ntext: Report\\ntitle: Follow up"}""";

	private final MockChatCompletionProvider mock = new MockChatCompletionProvider(json, Clock.systemUTC(),
			Duration.ZERO);

	@Test
	void firstAnswerCallsTheFirstToolWithArgumentsFromTheUserMessagesLines() {
		JsonNode choice = answer("[" + USER + "]", TOOLS);

		assertThat(choice.path("finish_reason").asString()).isEqualTo("tool_calls");
		JsonNode calls = choice.path("message").path("tool_calls");
		assertThat(calls.size()).isEqualTo(1);
		assertThat(calls.get(0).path("type").asString()).isEqualTo("function");
		assertThat(calls.get(0).path("id").asString()).startsWith("call_");
		assertThat(calls.get(0).path("function").path("name").asString()).isEqualTo("send_email");
		assertThat(json.readTree(calls.get(0).path("function").path("arguments").asString()))
			.isEqualTo(json.readTree("{\"to\":\"ops@example.com\",\"text\":\"Report\"}"));
		assertThat(choice.path("message").path("content").isNull()).isTrue();
	}

	@Test
	void afterTheFirstToolsResultTheNextToolIsCalled() {
		JsonNode choice = answer("[" + USER + "," + toolCall("send_email") + "," + result("\\\"msg_1\\\"") + "]", TOOLS);

		JsonNode function = choice.path("message").path("tool_calls").get(0).path("function");
		assertThat(function.path("name").asString()).isEqualTo("create_ticket");
		assertThat(json.readTree(function.path("arguments").asString()))
			.isEqualTo(json.readTree("{\"title\":\"Follow up\"}"));
	}

	@Test
	void onceEveryToolWasCalledTheAnswerNamesTheirResults() {
		JsonNode choice = answer("[" + USER + "," + toolCall("send_email") + "," + result("\\\"msg_1\\\"") + ","
				+ toolCall("create_ticket") + "," + result("TCK-1") + "]", TOOLS);

		assertThat(choice.path("finish_reason").asString()).isEqualTo("stop");
		assertThat(choice.path("message").path("content").asString()).isEqualTo("Done: msg_1; TCK-1.");
	}

	@Test
	void aNewUserMessageStartsTheToolsOver() {
		JsonNode choice = answer("[" + USER + "," + toolCall("send_email") + "," + result("msg_1") + ","
				+ toolCall("create_ticket") + "," + result("TCK-1") + ",{\"role\":\"assistant\",\"content\":\"Done\"},"
				+ USER + "]", TOOLS);

		assertThat(choice.path("message").path("tool_calls").get(0).path("function").path("name").asString())
			.isEqualTo("send_email");
	}

	@Test
	void withoutToolsTheAnswerEchoesAndEveryAnswerIsCounted() {
		int before = this.mock.completions();

		JsonNode choice = answer("[{\"role\":\"user\",\"content\":\"Hello\"}]", null);

		assertThat(choice.path("message").path("content").asString()).isEqualTo("Echo: Hello");
		assertThat(choice.path("message").has("tool_calls")).isFalse();
		assertThat(this.mock.completions()).isEqualTo(before + 1);
	}

	private JsonNode answer(String messages, String tools) {
		ObjectNode request = (ObjectNode) json.readTree("{\"model\":\"mock-1\",\"messages\":" + messages
				+ ((tools != null) ? ",\"tools\":" + tools : "") + "}");
		return json.readTree(this.mock.complete(request).body()).path("choices").get(0);
	}

	private static String toolCall(String name) {
		return "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_" + name
				+ "\",\"type\":\"function\",\"function\":{\"name\":\"" + name + "\",\"arguments\":\"{}\"}}]}";
	}

	private static String result(String content) {
		return "{\"role\":\"tool\",\"tool_call_id\":\"x\",\"content\":\"" + content + "\"}";
	}

}
