package dev.modelgate.sample.agent;

import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;

import dev.modelgate.idempotency.ai.IdempotentModelRoundsAdvisor;

/**
 * Hands each model round of a run to the run's {@link AgentSteps}. It sits inside Spring AI's tool loop
 * and outside the recorded model rounds ({@link IdempotentModelRoundsAdvisor}), so it sees every round,
 * answered by the model or from its record, after the round's tool calls were recorded.
 */
final class AgentStepsAdvisor implements CallAdvisor {

	/** The advisor parameter that holds the run's {@link AgentSteps}. */
	static final String STEPS = AgentSteps.class.getName();

	/** After the tool calling advisor, before the recorded model rounds. */
	static final int ORDER = ToolCallingAdvisor.DEFAULT_ORDER + 50;

	@Override
	public ChatClientResponse adviseCall(ChatClientRequest request, CallAdvisorChain chain) {
		if (!(request.context().get(STEPS) instanceof AgentSteps steps)) {
			return chain.nextCall(request);
		}
		steps.beforeRound(request.prompt().getInstructions());
		ChatClientResponse response = chain.nextCall(request);
		steps.afterRound(response.chatResponse());
		return response;
	}

	@Override
	public String getName() {
		return "agentSteps";
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

}
