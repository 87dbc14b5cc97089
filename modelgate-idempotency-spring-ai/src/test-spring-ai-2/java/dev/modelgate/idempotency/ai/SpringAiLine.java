package dev.modelgate.idempotency.ai;

import io.micrometer.observation.ObservationRegistry;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;

/**
 * How the tests' agent is put together on Spring AI 2 (the Spring Boot 4 line): Spring AI's OpenAI chat
 * model, and the {@code ChatClient}'s tool calling advisor running the tools through the given manager.
 * The only test source that differs between the lines: the Spring Boot 3.5 suite
 * ({@code spring-boot3/spring-ai-suite}) has its own, for Spring AI 1.
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
		OpenAiChatModel chatModel = OpenAiChatModel.builder()
			.options(OpenAiChatOptions.builder()
				.baseUrl(baseUrl + "/v1")
				.apiKey("test-key")
				.model("mock-agent")
				.maxRetries(0)
				.build())
			.build();
		return ChatClient.builder(chatModel, ObservationRegistry.NOOP, null, null,
				ToolCallingAdvisor.builder().toolCallingManager(manager));
	}

	/**
	 * The agent with its model rounds recorded: on Spring AI 2 the tool calling advisor hands each round
	 * to the advisors after it.
	 * @param baseUrl the OpenAI-compatible server, without {@code /v1}
	 * @param manager runs the tool calls
	 * @param rounds records the rounds
	 * @return a builder of the agent's chat client
	 */
	static ChatClient.Builder recordedAgent(String baseUrl, ToolCallingManager manager,
			IdempotentModelRoundsAdvisor rounds) {
		return agent(baseUrl, manager).defaultAdvisors(rounds);
	}

}
