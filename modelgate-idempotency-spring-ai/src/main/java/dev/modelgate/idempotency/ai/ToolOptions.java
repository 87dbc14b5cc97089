package dev.modelgate.idempotency.ai;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * A request's options with other tool callbacks, the request's own left alone. Spring AI 2's options are
 * immutable and built again ({@code mutate()}); Spring AI 1's (the Spring Boot 3.5 line's) are copied and
 * set. This jar is compiled against Spring AI 2, so the Spring AI 1 methods are called reflectively.
 */
final class ToolOptions {

	private static final @Nullable Method SET_TOOL_CALLBACKS = ClassUtils.getMethodIfAvailable(
			ToolCallingChatOptions.class, "setToolCallbacks", List.class);

	private static final @Nullable Method COPY = ClassUtils.getMethodIfAvailable(ChatOptions.class, "copy");

	private ToolOptions() {
	}

	static ToolCallingChatOptions withToolCallbacks(ToolCallingChatOptions options, List<ToolCallback> callbacks) {
		if (SET_TOOL_CALLBACKS == null || COPY == null) {
			return SpringAi2.withToolCallbacks(options, callbacks);
		}
		try {
			ToolCallingChatOptions copy = (ToolCallingChatOptions) COPY.invoke(options);
			SET_TOOL_CALLBACKS.invoke(copy, callbacks);
			return copy;
		}
		catch (IllegalAccessException | InvocationTargetException ex) {
			ReflectionUtils.handleReflectionException(ex);
			throw new IllegalStateException(ex);
		}
	}

	/** Loaded only on Spring AI 2, whose builder methods it calls. */
	private static final class SpringAi2 {

		static ToolCallingChatOptions withToolCallbacks(ToolCallingChatOptions options, List<ToolCallback> callbacks) {
			return options.mutate().toolCallbacks(callbacks).build();
		}

	}

}
