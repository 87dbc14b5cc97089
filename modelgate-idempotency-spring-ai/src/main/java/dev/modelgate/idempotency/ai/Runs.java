package dev.modelgate.idempotency.ai;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;

import dev.modelgate.idempotency.core.DerivedKeys;
import dev.modelgate.idempotency.core.IdempotencyContext;

/** Which run a chat call belongs to, and which round of it a prompt is. */
final class Runs {

	private Runs() {
	}

	/** The run key the caller gave, or else the scope of the attempt the thread holds, or none. */
	static @Nullable String runKey(Map<String, Object> toolContext) {
		Object given = toolContext.get(IdempotentToolCallingManager.RUN_KEY);
		if (given != null && !given.toString().isEmpty()) {
			// Kept apart from attempt scopes, which are hex SHA-256 too but of other things.
			return DerivedKeys.hex("run-key", given.toString());
		}
		return IdempotencyContext.current().map(IdempotencyContext.Held::scope).orElse(null);
	}

	/** The name of the chat call in its run, or empty. */
	static String callName(Map<String, Object> toolContext) {
		Object callName = toolContext.get(IdempotentToolCallingManager.CALL_NAME);
		return (callName != null) ? callName.toString() : "";
	}

	/** The model answers with tool calls in {@code history}: the round of the answer that follows it. */
	static int roundOf(List<Message> history) {
		int round = 0;
		for (Message message : history) {
			if (message instanceof AssistantMessage assistant && assistant.hasToolCalls()) {
				round++;
			}
		}
		return round;
	}

}
