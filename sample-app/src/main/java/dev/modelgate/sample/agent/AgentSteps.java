package dev.modelgate.sample.agent;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatResponse;

import dev.modelgate.idempotency.core.DerivedKeys;

/**
 * What one agent run did, read from the conversation of its model rounds (recorded rounds and tool
 * results included, so a retried run reports the same steps): a step for each tool call, with the key it
 * ran under and its result, then the answer. Also where a run asked to crash after a step does so.
 */
final class AgentSteps {

	private final String runKey;

	private final Integer failAfterStep;

	private List<AgentRun.Step> toolSteps = List.of();

	private String answer;

	/**
	 * @param runKey the run's key (the keyed request's scope), from which the tool calls' keys derive, or
	 * {@code null} outside a keyed run
	 * @param failAfterStep the step after which to simulate a crash, or {@code null}
	 */
	AgentSteps(String runKey, Integer failAfterStep) {
		this.runKey = runKey;
		this.failAfterStep = failAfterStep;
	}

	/** Before a model round: the tool calls so far have run (or were replayed) and are recorded. */
	void beforeRound(List<Message> conversation) {
		this.toolSteps = toolSteps(conversation);
		crashIfAsked(this.toolSteps.size());
	}

	/** After a model round: an answer without tool calls is the run's last step. */
	void afterRound(ChatResponse response) {
		AssistantMessage message = (response != null && response.getResult() != null) ? response.getResult().getOutput()
				: null;
		if (message != null && !message.hasToolCalls()) {
			this.answer = message.getText();
			crashIfAsked(this.toolSteps.size() + 1);
		}
	}

	List<AgentRun.Step> steps() {
		List<AgentRun.Step> steps = new ArrayList<>(this.toolSteps);
		steps.add(new AgentRun.Step(steps.size() + 1, "answer", null, this.answer));
		return steps;
	}

	private void crashIfAsked(int step) {
		if (this.failAfterStep != null && step > 0 && this.failAfterStep == step) {
			throw new SimulatedCrashException(step);
		}
	}

	/**
	 * The tool calls in the order the model asked for them, each with its result. Rounds are numbered as
	 * the library numbers them (the answers with tool calls before), and so are the keys.
	 */
	private List<AgentRun.Step> toolSteps(List<Message> conversation) {
		Map<String, String> keys = new HashMap<>();
		List<AgentRun.Step> steps = new ArrayList<>();
		int round = 0;
		for (Message message : conversation) {
			if (message instanceof AssistantMessage assistant && assistant.hasToolCalls()) {
				List<AssistantMessage.ToolCall> calls = assistant.getToolCalls();
				for (int position = 0; position < calls.size(); position++) {
					AssistantMessage.ToolCall call = calls.get(position);
					keys.put(call.id(), (this.runKey != null)
							? DerivedKeys.forTool(this.runKey, round + "." + position, call.name()) : null);
				}
				round++;
			}
			else if (message instanceof ToolResponseMessage results) {
				for (ToolResponseMessage.ToolResponse result : results.getResponses()) {
					steps.add(new AgentRun.Step(steps.size() + 1, result.name(), keys.get(result.id()),
							text(result.responseData())));
				}
			}
		}
		return steps;
	}

	/** Spring AI gives the model a tool's result as JSON: a returned string is a JSON string. */
	private static String text(String result) {
		try {
			JsonNode node = JsonMapper.shared().readTree(result);
			return node.isString() ? node.asString() : result;
		}
		catch (JacksonException ex) {
			return result;
		}
	}

}
