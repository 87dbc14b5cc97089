package dev.modelgate.idempotency.ai;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.ai.tool.metadata.ToolMetadata;

import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.IdempotentCall;
import dev.modelgate.idempotency.core.Reconciliation;
import dev.modelgate.idempotency.core.RecordedFailureException;

/**
 * A tool of one round of a keyed run: each call runs through {@link IdempotencyTemplate} under the key of
 * its place in the round, so a call recorded by an earlier run of the agent is not made again and its
 * recorded result goes to the model instead.
 */
final class IdempotentToolCallback implements ToolCallback {

	private static final Logger logger = LoggerFactory.getLogger(IdempotentToolCallback.class);

	private final ToolCallback delegate;

	private final ToolProtection protection;

	private final ToolRound round;

	private final IdempotencyTemplate template;

	private final Duration waitTimeout;

	IdempotentToolCallback(ToolCallback delegate, ToolProtection protection, ToolRound round,
			IdempotencyTemplate template, Duration waitTimeout) {
		this.delegate = delegate;
		this.protection = protection;
		this.round = round;
		this.template = template;
		this.waitTimeout = waitTimeout;
	}

	@Override
	public ToolDefinition getToolDefinition() {
		return this.delegate.getToolDefinition();
	}

	@Override
	public ToolMetadata getToolMetadata() {
		return this.delegate.getToolMetadata();
	}

	@Override
	public String call(String toolInput) {
		return call(toolInput, null);
	}

	@Override
	public String call(String toolInput, @Nullable ToolContext toolContext) {
		String toolName = getToolDefinition().name();
		int position = this.round.claim(toolName);
		if (position < 0) {
			throw new IllegalStateException("Tool '" + toolName + "' was called in round " + this.round.round()
					+ " more often than the model asked for it; its calls are keyed by their place in the model's answer");
		}
		String key = this.round.keyOf(position, toolName);
		String argumentsHash = RecordedToolCall.hashArguments(toolName, toolInput);
		IdempotentCall<RecordedToolCall> call = IdempotentCall
			.of(IdempotentToolCallingManager.OPERATION_PREFIX + toolName, key, RecordedToolCall.CODEC)
			.withReportedMethod(IdempotentToolCallingManager.REPORTED_METHOD)
			.withWaitTimeout(this.waitTimeout);
		if (this.protection.failurePolicy() != null) {
			call = call.withFailurePolicy(this.protection.failurePolicy());
		}
		ToolReconciler reconciler = this.protection.reconciler();
		if (reconciler != null) {
			call = call.withReconciler(() -> {
				Reconciliation<String> found = reconciler.reconcile(key, toolInput);
				return found.isFound() ? Reconciliation.found(new RecordedToolCall(argumentsHash, found.value()))
						: Reconciliation.notFound();
			});
		}
		ToolContext keyed = withToolCallKey(toolContext, key);
		RecordedToolCall recorded;
		try {
			recorded = this.template.execute(call,
					() -> new RecordedToolCall(argumentsHash, this.delegate.call(toolInput, keyed)));
		}
		catch (RecordedFailureException ex) {
			// The first run's failure reached the model as the tool's error; a re-run's does too.
			throw new ToolExecutionException(getToolDefinition(), ex);
		}
		if (recorded.argumentsHash().equals(argumentsHash)) {
			return recorded.result();
		}
		if (this.protection.onArgumentMismatch() == ArgumentMismatch.REFUSE) {
			throw new ToolArgumentsMismatchException(toolName, this.round.round(), position);
		}
		logger.info("Tool '{}' (round {}, position {}) was called with other arguments than the call recorded there "
				+ "for this run; it did not run again, and the model gets the recorded result", toolName,
				this.round.round(), position);
		return IdempotentToolCallingManager.MISMATCH_NOTE + ((recorded.result() != null) ? recorded.result() : "");
	}

	private static ToolContext withToolCallKey(@Nullable ToolContext toolContext, String key) {
		Map<String, Object> context = new HashMap<>();
		if (toolContext != null) {
			context.putAll(toolContext.getContext());
		}
		// The tool gets its call's derived key, never the run's own (an MCP client would send it on).
		context.remove(IdempotentToolCallingManager.RUN_KEY);
		context.put(IdempotentToolCallingManager.TOOL_CALL_KEY, key);
		return new ToolContext(context);
	}

	@Override
	public String toString() {
		return "IdempotentToolCallback[" + this.delegate + "]";
	}

}
