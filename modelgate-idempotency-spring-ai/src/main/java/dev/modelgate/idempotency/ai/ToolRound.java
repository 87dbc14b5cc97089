package dev.modelgate.idempotency.ai;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.messages.AssistantMessage;

import dev.modelgate.idempotency.core.DerivedKeys;

/**
 * One round of a keyed run: the tool calls of one model answer. The tool calling manager runs them in
 * the order of the answer, one after the other, so the n-th invocation of a tool in the round is the
 * n-th call of that tool in the answer; {@link #claim} hands out those positions.
 */
final class ToolRound {

	private final String runKey;

	private final String callName;

	private final int round;

	private final List<AssistantMessage.ToolCall> toolCalls;

	private final boolean[] claimed;

	ToolRound(String runKey, String callName, int round, List<AssistantMessage.ToolCall> toolCalls) {
		this.runKey = runKey;
		this.callName = callName;
		this.round = round;
		this.toolCalls = List.copyOf(toolCalls);
		this.claimed = new boolean[this.toolCalls.size()];
	}

	int round() {
		return this.round;
	}

	/**
	 * The position, in the model's answer, of the next call of {@code toolName} not yet made in this
	 * round, or -1 if there is none (a tool called that the model did not ask for).
	 */
	synchronized int claim(String toolName) {
		for (int position = 0; position < this.toolCalls.size(); position++) {
			if (!this.claimed[position] && toolName.equals(this.toolCalls.get(position).name())) {
				this.claimed[position] = true;
				return position;
			}
		}
		return -1;
	}

	/**
	 * The key of the call at {@code position}: {@link DerivedKeys#forTool} of the run key, a step naming
	 * the chat call, the round and the position, and the tool's name. The same on every re-run that
	 * reaches this call, whatever id the model gives the call this time.
	 */
	String keyOf(int position, String toolName) {
		return DerivedKeys.forTool(this.runKey, step(this.callName, this.round, position), toolName);
	}

	static String step(@Nullable String callName, int round, int position) {
		String step = round + "." + position;
		return (callName == null || callName.isEmpty()) ? step : callName + "/" + step;
	}

}
