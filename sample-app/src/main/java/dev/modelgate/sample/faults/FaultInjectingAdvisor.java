package dev.modelgate.sample.faults;

import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;

import dev.modelgate.idempotency.ai.IdempotentModelRoundsAdvisor;

/**
 * Lets an agent run stop between its model rounds: inside Spring AI's tool loop and outside the recorded
 * model rounds ({@link IdempotentModelRoundsAdvisor}), so after a round is recorded, and before a round
 * whose conversation ends with tool results, which are recorded by then. Each point stops once: a thread
 * paused there is the one the test kills.
 */
final class FaultInjectingAdvisor implements CallAdvisor {

	@Override
	public ChatClientResponse adviseCall(ChatClientRequest request, CallAdvisorChain chain) {
		var instructions = request.prompt().getInstructions();
		Message last = instructions.isEmpty() ? null : instructions.get(instructions.size() - 1);
		if (last instanceof ToolResponseMessage) {
			RequestedFault.pauseIfRequested(FaultPoint.AFTER_TOOL_RECORD);
		}
		ChatClientResponse response = chain.nextCall(request);
		RequestedFault.pauseIfRequested(FaultPoint.AFTER_MODEL_ROUND);
		return response;
	}

	@Override
	public String getName() {
		return "faultInjecting";
	}

	/** Inside the run's own advisors, outside the recorded rounds. */
	@Override
	public int getOrder() {
		return ToolCallingAdvisor.DEFAULT_ORDER + 60;
	}

}
