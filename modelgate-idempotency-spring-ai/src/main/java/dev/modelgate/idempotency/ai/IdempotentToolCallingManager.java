package dev.modelgate.idempotency.ai;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

import dev.modelgate.idempotency.core.DerivedKeys;
import dev.modelgate.idempotency.core.IdempotencyTemplate;

/**
 * A {@link ToolCallingManager} that runs the protected tools of a keyed run at most once per call. Put it
 * around the manager of Spring AI's tool calling advisor (the auto-configuration does this for the
 * application's {@code ToolCallingManager} bean):
 *
 * <pre class="code">
 * ToolCallingManager tools = new IdempotentToolCallingManager(ToolCallingManager.builder().build(), template,
 *         IdempotentToolPolicy.annotated(), Duration.ofSeconds(10));
 * ChatClient chat = ChatClient.builder(chatModel, ObservationRegistry.NOOP, null, null,
 *         ToolCallingAdvisor.builder().toolCallingManager(tools)).build();
 * </pre>
 *
 * <p><b>The run.</b> A chat call belongs to a keyed run when its tool context holds {@link #RUN_KEY}
 * (given by the caller, {@code .toolContext(Map.of(RUN_KEY, runKey))}), or else when the calling thread
 * holds an idempotency attempt: a keyed HTTP request, an {@code @IdempotentOperation} method, an
 * {@code @IdempotentListener} ({@link dev.modelgate.idempotency.core.IdempotencyContext}); the run key is then
 * the attempt's scope, the same on every retry and private to its client. Without a run, the calls go to the delegate unchanged.
 *
 * <p><b>The key of a call.</b> Each model answer that asks for tools is a round, numbered by the answers
 * with tool calls before it in the conversation (0 for the first). The n-th call of the answer gets
 * {@link DerivedKeys#forTool} of the run key, the step {@code "<round>.<n>"} (prefixed by
 * {@link #CALL_NAME} and a slash when the tool context names the chat call) and the tool's name, so a
 * re-run of the agent that reaches the same call uses the same key, whatever id the model gives the call
 * this time. A run that makes more than one chat call with tools gives each a {@link #CALL_NAME}, or the
 * first round of each would share its keys. The tool gets its call's key in its {@code ToolContext} under
 * {@link #TOOL_CALL_KEY}, to pass to a downstream API that accepts an idempotency key.
 *
 * <p><b>Running a call.</b> Through {@link IdempotencyTemplate}, in the operation
 * {@code agent.tool.<tool name>} (the route of its decisions, reported with the method
 * {@link #REPORTED_METHOD}): run and recorded the first time; a call recorded earlier is not run, its
 * recorded result goes to the model; a call running elsewhere (a concurrent duplicate of the run) is
 * waited for up to the wait timeout and then replayed, or refused with
 * {@code IdempotencyInProgressException}. Failures follow the tool's {@link ToolProtection} (by default
 * the template's policy: released, so a re-run calls the tool again); an unknown outcome is settled as
 * the template settles it. The arguments are fingerprinted (canonical JSON) and kept with the result:
 * a re-run whose model calls the tool at the same place with other arguments gets what
 * {@link ArgumentMismatch} says.
 *
 * <p>Only the tools of the request are protected (Spring AI 2 runs no others unless its resolution
 * fallback is enabled), and only those the {@link IdempotentToolPolicy} names.
 */
public class IdempotentToolCallingManager implements ToolCallingManager {

	/** The tool context entry that names the run: any non-empty string, the same on every retry of the run. */
	public static final String RUN_KEY = "modelgate.idempotency.run-key";

	/**
	 * The tool context entry that names one chat call of a run that makes several, so that their rounds
	 * get keys of their own.
	 */
	public static final String CALL_NAME = "modelgate.idempotency.call-name";

	/**
	 * The tool context entry under which a protected tool finds its call's key. Spring AI's MCP client
	 * sends the tool context as the call's {@code _meta}, where an MCP server built with
	 * {@link IdempotentMcpTools} finds the key under the same name.
	 */
	public static final String TOOL_CALL_KEY = "dev.modelgate/idempotency-key";

	/** The method of the decisions reported for tool calls; their route is the operation's name. */
	public static final String REPORTED_METHOD = "TOOL";

	/** The operation of a tool's calls is this prefix and the tool's name. */
	public static final String OPERATION_PREFIX = "agent.tool.";

	/** What precedes the recorded result when a re-run's model called the tool with other arguments. */
	public static final String MISMATCH_NOTE = "[This call was already made earlier in this run, with other "
			+ "arguments; it was not made again. The result it recorded then follows.]\n";

	private final ToolCallingManager delegate;

	private final IdempotencyTemplate template;

	private final IdempotentToolPolicy policy;

	private final Duration waitTimeout;

	/**
	 * @param delegate runs the tool calls
	 * @param template runs each protected call at most once
	 * @param policy which tools are protected, and how
	 * @param waitTimeout how long a call waits for the same call running elsewhere before it is refused
	 */
	public IdempotentToolCallingManager(ToolCallingManager delegate, IdempotencyTemplate template,
			IdempotentToolPolicy policy, Duration waitTimeout) {
		this.delegate = Objects.requireNonNull(delegate, "delegate must not be null");
		this.template = Objects.requireNonNull(template, "template must not be null");
		this.policy = Objects.requireNonNull(policy, "policy must not be null");
		this.waitTimeout = Objects.requireNonNull(waitTimeout, "waitTimeout must not be null");
		if (waitTimeout.isNegative()) {
			throw new IllegalArgumentException("waitTimeout must not be negative, was " + waitTimeout);
		}
	}

	/** @return the manager that runs the tool calls */
	public ToolCallingManager getDelegate() {
		return this.delegate;
	}

	@Override
	public List<ToolDefinition> resolveToolDefinitions(ToolCallingChatOptions chatOptions) {
		return this.delegate.resolveToolDefinitions(chatOptions);
	}

	@Override
	public ToolExecutionResult executeToolCalls(Prompt prompt, ChatResponse chatResponse) {
		if (!(prompt.getOptions() instanceof ToolCallingChatOptions options) || options.getToolCallbacks() == null
				|| options.getToolCallbacks().isEmpty()) {
			return this.delegate.executeToolCalls(prompt, chatResponse);
		}
		Map<String, Object> toolContext = (options.getToolContext() != null) ? options.getToolContext() : Map.of();
		String runKey = Runs.runKey(toolContext);
		Optional<AssistantMessage> answer = chatResponse.getResults()
			.stream()
			.map(Generation::getOutput)
			.filter(AssistantMessage::hasToolCalls)
			.findFirst();
		if (runKey == null || answer.isEmpty()) {
			return this.delegate.executeToolCalls(prompt, chatResponse);
		}
		ToolRound round = new ToolRound(runKey, Runs.callName(toolContext),
				Runs.roundOf(prompt.getInstructions()), answer.get().getToolCalls());
		List<ToolCallback> callbacks = new ArrayList<>();
		boolean protectsAny = false;
		for (ToolCallback callback : options.getToolCallbacks()) {
			ToolProtection protection = this.policy.protectionOf(callback);
			if (protection != null) {
				callbacks.add(new IdempotentToolCallback(callback, protection, round, this.template, this.waitTimeout));
				protectsAny = true;
			}
			else {
				callbacks.add(callback);
			}
		}
		if (!protectsAny) {
			return this.delegate.executeToolCalls(prompt, chatResponse);
		}
		ToolCallingChatOptions protectedOptions = ToolOptions.withToolCallbacks(options, callbacks);
		return this.delegate.executeToolCalls(new Prompt(prompt.getInstructions(), protectedOptions), chatResponse);
	}

}
