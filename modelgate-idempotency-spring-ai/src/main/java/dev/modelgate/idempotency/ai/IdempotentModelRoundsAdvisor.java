package dev.modelgate.idempotency.ai;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import dev.modelgate.idempotency.core.DerivedKeys;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.IdempotentCall;

/**
 * Records each model round of a keyed run, so that a re-run replays the rounds it already paid for and
 * asks the model again only from the first round not recorded. With
 * {@link IdempotentToolCallingManager}, a run that failed after its third round re-runs its first three
 * rounds and their tool calls from the store, and continues from there.
 *
 * <pre class="code">
 * ChatClient chat = ChatClient.builder(chatModel).defaultAdvisors(new IdempotentModelRoundsAdvisor(template)).build();
 * </pre>
 *
 * <p>The run is found as {@link IdempotentToolCallingManager} finds it ({@link IdempotentToolCallingManager#RUN_KEY}
 * in the tool context, or the attempt the thread holds), and a round is numbered as there: by the model
 * answers with tool calls before it in the prompt. The key of a round is {@link DerivedKeys#uuid} of the
 * run key, {@code "model-round"}, the chat call's name and the round; it runs in the operation
 * {@code agent.model}. The key names the round, not the prompt: a re-run whose prompt differs (a time in
 * the system message) still gets the recorded answer. The advisor sits inside the tool calling advisor's
 * loop (its order is after it), so it sees every round; blocking calls only, a stream passes through
 * unrecorded. Without a run the call passes through unchanged.
 *
 * <p>On Spring AI 1 (the Spring Boot 3.5 line), the chat model runs the tool loop itself unless the
 * {@code ChatClient} has Spring AI's {@code ToolCallAdvisor}, which hands each round to the advisors
 * after it: add it, with the {@link IdempotentToolCallingManager}, for the rounds to be recorded. A call
 * whose model runs its own tool loop passes through unrecorded (its tool calls are still protected by the
 * manager), and a WARN says so once.
 */
public class IdempotentModelRoundsAdvisor implements CallAdvisor {

	/** The operation model rounds run in. */
	public static final String OPERATION = "agent.model";

	/** After the tool calling advisor, so that each round of its loop passes here. */
	public static final int DEFAULT_ORDER = ToolCallingAdvisor.DEFAULT_ORDER + 100;

	private static final Logger logger = LoggerFactory.getLogger(IdempotentModelRoundsAdvisor.class);

	/** Spring AI 1's switch of the chat model's own tool loop; Spring AI 2 has no such loop. */
	private static final @Nullable Method INTERNAL_TOOL_EXECUTION = ClassUtils
		.getMethodIfAvailable(ToolCallingChatOptions.class, "getInternalToolExecutionEnabled");

	private final AtomicBoolean warnedOfModelLoop = new AtomicBoolean();

	private final IdempotencyTemplate template;

	/**
	 * @param template records and replays each round
	 */
	public IdempotentModelRoundsAdvisor(IdempotencyTemplate template) {
		this.template = Objects.requireNonNull(template, "template must not be null");
	}

	@Override
	public String getName() {
		return "Idempotent model rounds";
	}

	@Override
	public int getOrder() {
		return DEFAULT_ORDER;
	}

	@Override
	public ChatClientResponse adviseCall(ChatClientRequest request, CallAdvisorChain chain) {
		Map<String, Object> toolContext = (request.prompt().getOptions() instanceof ToolCallingChatOptions options
				&& options.getToolContext() != null) ? options.getToolContext() : Map.of();
		String runKey = Runs.runKey(toolContext);
		if (runKey == null) {
			return chain.nextCall(request);
		}
		if (modelRunsTheToolLoop(request.prompt().getOptions())) {
			if (this.warnedOfModelLoop.compareAndSet(false, true)) {
				logger.warn("The chat model runs the tool loop itself (Spring AI 1 without ToolCallAdvisor): its model "
						+ "rounds are not recorded, only its protected tool calls. Add ToolCallAdvisor, with the "
						+ "IdempotentToolCallingManager, to the ChatClient for the rounds to be recorded");
			}
			return chain.nextCall(request);
		}
		int round = Runs.roundOf(request.prompt().getInstructions());
		String key = DerivedKeys.uuid(runKey, "model-round", Runs.callName(toolContext), Integer.toString(round));
		IdempotentCall<ChatResponse> call = IdempotentCall.of(OPERATION, key, RecordedModelRound.CODEC)
			.withReportedMethod(IdempotentToolCallingManager.REPORTED_METHOD);
		ChatClientResponse[] asked = new ChatClientResponse[1];
		ChatResponse answer = this.template.execute(call, () -> {
			asked[0] = chain.nextCall(request);
			return asked[0].chatResponse();
		});
		if (asked[0] != null) {
			return asked[0];
		}
		return ChatClientResponse.builder().chatResponse(answer).context(request.context()).build();
	}

	/**
	 * Whether the chat model runs the tool loop inside one call, so that this advisor would see the whole
	 * loop as one round: Spring AI 1 with internal tool execution on (its default), not under its
	 * {@code ToolCallAdvisor}, which turns it off. Never on Spring AI 2.
	 */
	private static boolean modelRunsTheToolLoop(@Nullable Object options) {
		if (INTERNAL_TOOL_EXECUTION == null || !(options instanceof ToolCallingChatOptions)) {
			return false;
		}
		Object enabled = ReflectionUtils.invokeMethod(INTERNAL_TOOL_EXECUTION, options);
		return !Boolean.FALSE.equals(enabled);
	}

}
