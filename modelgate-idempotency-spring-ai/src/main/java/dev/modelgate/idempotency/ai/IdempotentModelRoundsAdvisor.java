package dev.modelgate.idempotency.ai;

import java.util.Map;
import java.util.Objects;

import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

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
 */
public class IdempotentModelRoundsAdvisor implements CallAdvisor {

	/** The operation model rounds run in. */
	public static final String OPERATION = "agent.model";

	/** After the tool calling advisor, so that each round of its loop passes here. */
	public static final int DEFAULT_ORDER = ToolCallingAdvisor.DEFAULT_ORDER + 100;

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

}
