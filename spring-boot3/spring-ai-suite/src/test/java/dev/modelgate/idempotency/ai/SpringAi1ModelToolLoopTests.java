package dev.modelgate.idempotency.ai;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.model.tool.ToolCallingManager;

import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What is Spring AI 1's own: the chat model runs the tool loop inside one call unless the
 * {@code ChatClient} has {@code ToolCallAdvisor}. The tool calls are protected all the same (the model
 * calls the manager), but the model rounds advisor sees the whole loop as one call and does not record it:
 * a re-run asks the model again. The same for a streamed call ({@code ToolCallAdvisor} does not stream
 * on Spring AI 1).
 */
class SpringAi1ModelToolLoopTests {

	private final MockOpenAiServer model;

	private final AgentTools tools = new AgentTools();

	private final IdempotencyTemplate template = new IdempotencyTemplate(
			IdempotencyCoordinator.create(new InMemoryIdempotencyStore(), Duration.ofSeconds(2)));

	private final ToolCallingManager manager = new IdempotentToolCallingManager(ToolCallingManager.builder().build(),
			this.template, IdempotentToolPolicy.annotated(), Duration.ofSeconds(5));

	SpringAi1ModelToolLoopTests() throws Exception {
		this.model = new MockOpenAiServer();
	}

	@AfterEach
	void stopModel() {
		this.model.close();
	}

	@Test
	void modelRoundsAreNotRecordedWhenTheChatModelRunsTheToolLoopButTheToolsStillRunOnce() {
		ChatClient chat = SpringAiLine.agent(this.model.baseUrl(), this.manager)
			.defaultAdvisors(new IdempotentModelRoundsAdvisor(this.template))
			.defaultTools(this.tools)
			.build();
		String run = "run-" + UUID.randomUUID();

		String first = agent(chat, run);
		String second = agent(chat, run);

		assertThat(second).isEqualTo(first);
		assertThat(this.model.requests()).as("three rounds, asked on each run").isEqualTo(6);
		assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(1);
		assertThat(this.tools.tickets).hasValue(1);
		assertThat(this.tools.lookups).hasValue(2);
	}

	@Test
	void aStreamedCallWhoseModelRunsTheToolLoopPassesThroughUnrecordedButTheToolsStillRunOnce() {
		ChatClient chat = SpringAiLine.agent(this.model.baseUrl(), this.manager)
			.defaultAdvisors(new IdempotentModelRoundsAdvisor(this.template))
			.defaultTools(this.tools)
			.build();
		String run = "run-" + UUID.randomUUID();

		String first = streamed(chat, run);
		String second = streamed(chat, run);

		assertThat(first).contains("-to-ann@example.com", "ticket-");
		assertThat(second).isEqualTo(first);
		assertThat(this.model.requests()).as("three rounds, asked on each run").isEqualTo(6);
		assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(1);
		assertThat(this.tools.tickets).hasValue(1);
	}

	private static String streamed(ChatClient chat, String run) {
		return String.join("", chat.prompt()
			.user("Mail the weekly report to Ann and Bob, check order 42, open a follow-up ticket")
			.toolContext(Map.of(IdempotentToolCallingManager.RUN_KEY, run))
			.stream()
			.content()
			.collectList()
			.block(Duration.ofSeconds(30)));
	}

	private static String agent(ChatClient chat, String run) {
		return chat.prompt()
			.user("Mail the weekly report to Ann and Bob, check order 42, open a follow-up ticket")
			.toolContext(Map.of(IdempotentToolCallingManager.RUN_KEY, run))
			.call()
			.content();
	}

}
