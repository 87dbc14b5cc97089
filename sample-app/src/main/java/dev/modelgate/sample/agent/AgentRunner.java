package dev.modelgate.sample.agent;

import java.util.Map;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.stereotype.Service;

import dev.modelgate.idempotency.core.IdempotencyContext;

/**
 * The agent: a Spring AI {@code ChatClient} with two tools that have an effect, {@code send_email}
 * ({@link MailTool}) and {@code create_ticket} ({@link TicketTool}), both {@code @IdempotentTool}. Its model
 * is the gateway's own {@code /v1/chat/completions} ({@code spring.ai.openai.base-url}), so the mock
 * provider offline. Nothing here names a run key: the keyed request is the run, so the starter's
 * {@code IdempotentToolCallingManager} runs each tool call of the run at most once, and with
 * {@code record-model-rounds} a retried run gets the model's answers it already had from their records.
 */
@Service
public class AgentRunner {

	private final ChatClient chat;

	private final AgentProperties properties;

	public AgentRunner(ChatClient.Builder chatClientBuilder, MailTool mailTool, TicketTool ticketTool,
			AgentProperties properties) {
		this.chat = chatClientBuilder.defaultTools(mailTool, ticketTool)
			.defaultAdvisors(new AgentStepsAdvisor())
			.build();
		this.properties = properties;
	}

	/**
	 * Runs the agent.
	 * @param runId the run's id, the same on every retry of the run
	 */
	public AgentRun run(String runId, AgentRunRequest request) {
		boolean faults = this.properties.isFaultsEnabled();
		AgentSteps steps = new AgentSteps(IdempotencyContext.current().map(IdempotencyContext.Held::scope).orElse(null),
				faults ? request.failAfterStep() : null);
		this.chat.prompt()
			.user(task(request))
			.toolContext(Map.of(MailTool.TIME_OUT_AFTER_SENDING, faults && request.mailTimesOut()))
			.advisors((advisors) -> advisors.param(AgentStepsAdvisor.STEPS, steps))
			.call()
			.content();
		return new AgentRun(runId, "completed", steps.steps());
	}

	/**
	 * The task as the model gets it. A real model reads the first line; the mock provider takes each tool
	 * argument from the line of its name.
	 */
	private static String task(AgentRunRequest request) {
		return String.join("\n", "Mail a report on this task to " + request.reportTo()
				+ ", then open a ticket to follow it up: " + request.task(),
				"to: " + request.reportTo(),
				"subject: Agent report: " + request.task(),
				"text: The agent is working on: " + request.task(),
				"title: Follow up: " + request.task());
	}

}
