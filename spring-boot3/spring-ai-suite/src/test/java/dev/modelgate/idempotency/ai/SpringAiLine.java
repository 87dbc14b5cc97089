package dev.modelgate.idempotency.ai;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.ToolCallAdvisor;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.openai.api.OpenAiApi;
import org.springframework.retry.support.RetryTemplate;

/**
 * How the tests' agent is put together on Spring AI 1 (the Spring Boot 3.5 line): Spring AI's OpenAI chat
 * model running the tool loop itself through the given manager, as Spring AI 1's auto-configuration wires
 * it. Model rounds are recorded under Spring AI 1's {@code ToolCallAdvisor}, which hands each round to the
 * advisors after it. The module's {@code src/test-spring-ai-2} has the Spring AI 2 assembly.
 */
final class SpringAiLine {

	private SpringAiLine() {
	}

	/**
	 * @param baseUrl the OpenAI-compatible server, without {@code /v1}
	 * @param manager runs the tool calls
	 * @return a builder of the agent's chat client
	 */
	static ChatClient.Builder agent(String baseUrl, ToolCallingManager manager) {
		return ChatClient.builder(chatModel(baseUrl, manager));
	}

	/**
	 * The agent with its model rounds recorded: the tool loop in Spring AI 1's {@code ToolCallAdvisor},
	 * with the same manager, and the rounds advisor after it.
	 * @param baseUrl the OpenAI-compatible server, without {@code /v1}
	 * @param manager runs the tool calls
	 * @param rounds records the rounds
	 * @return a builder of the agent's chat client
	 */
	static ChatClient.Builder recordedAgent(String baseUrl, ToolCallingManager manager,
			IdempotentModelRoundsAdvisor rounds) {
		return ChatClient.builder(chatModel(baseUrl, manager))
			.defaultAdvisors(ToolCallAdvisor.builder().toolCallingManager(manager).build(), rounds);
	}

	static OpenAiChatModel chatModel(String baseUrl, ToolCallingManager manager) {
		OpenAiApi api = OpenAiApi.builder().baseUrl(baseUrl).apiKey("test-key").build();
		return OpenAiChatModel.builder()
			.openAiApi(api)
			.defaultOptions(OpenAiChatOptions.builder().model("mock-agent").build())
			.toolCallingManager(manager)
			.retryTemplate(RetryTemplate.builder().maxAttempts(1).build())
			.build();
	}

}
