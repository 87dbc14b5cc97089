package dev.modelgate.idempotency.ai;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.scheduler.Schedulers;

import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisor;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.MessageAggregator;
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
 * loop (its order is after it), so it sees every round. Streamed calls are recorded too
 * ({@link #adviseStream}): a recorded round is replayed as one response, a round not recorded streams
 * through and is recorded at its end. On the streaming path the tool calling advisor asks for the rounds
 * after the first on another thread: give the run key in the tool context there. Without a run the call
 * passes through unchanged.
 *
 * <p>On Spring AI 1 (the Spring Boot 3.5 line), the chat model runs the tool loop itself unless the
 * {@code ChatClient} has Spring AI's {@code ToolCallAdvisor}, which hands each round to the advisors
 * after it: add it, with the {@link IdempotentToolCallingManager}, for the rounds to be recorded. A call
 * whose model runs its own tool loop passes through unrecorded (its tool calls are still protected by the
 * manager), and a WARN says so once. Spring AI 1's {@code ToolCallAdvisor} does not stream (its
 * {@code adviseStream} fails), so there a streamed call with tools is the model's own loop: it passes
 * through unrecorded.
 */
public class IdempotentModelRoundsAdvisor implements CallAdvisor, StreamAdvisor {

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
		IdempotentCall<ChatResponse> call = roundCall(request);
		if (call == null) {
			return chain.nextCall(request);
		}
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
	 * A round already recorded is answered from the record, as one response, without asking the model; a
	 * round not recorded streams through as it comes and is recorded, its chunks aggregated by Spring AI's
	 * {@link MessageAggregator}, once the stream completes. A stream that fails or is cancelled before its
	 * end is not recorded: the key is released (the failure policy decides, as for a blocking round), and a
	 * re-run asks the model again. The store is asked on {@link Schedulers#boundedElastic()}, which also
	 * waits there for the stream's end.
	 */
	@Override
	public Flux<ChatClientResponse> adviseStream(ChatClientRequest request, StreamAdvisorChain chain) {
		IdempotentCall<ChatResponse> call = roundCall(request);
		if (call == null) {
			return chain.nextStream(request);
		}
		return Flux.create((sink) -> {
			AtomicReference<@Nullable CompletableFuture<Void>> streaming = new AtomicReference<>();
			AtomicBoolean cancelled = new AtomicBoolean();
			sink.onCancel(() -> {
				cancelled.set(true);
				CompletableFuture<Void> running = streaming.get();
				if (running != null) {
					running.cancel(false);
				}
			});
			// Not subscribeOn: cancelling it would interrupt the thread while it settles the key in the store.
			Schedulers.boundedElastic().schedule(() -> streamRound(call, request, chain, sink, streaming, cancelled));
		});
	}

	private void streamRound(IdempotentCall<ChatResponse> call, ChatClientRequest request, StreamAdvisorChain chain,
			FluxSink<ChatClientResponse> sink, AtomicReference<@Nullable CompletableFuture<Void>> streaming,
			AtomicBoolean cancelled) {
		boolean[] asked = new boolean[1];
		try {
			ChatResponse answer = this.template.execute(call, () -> {
				asked[0] = true;
				AtomicReference<@Nullable ChatResponse> aggregated = new AtomicReference<>();
				Flux<ChatResponse> chunks = chain.nextStream(request)
					.doOnNext(sink::next)
					.mapNotNull(ChatClientResponse::chatResponse);
				CompletableFuture<Void> done = new MessageAggregator().aggregate(chunks, aggregated::set)
					.then()
					.toFuture();
				streaming.set(done);
				if (cancelled.get()) {
					done.cancel(false);
				}
				awaitEnd(done);
				ChatResponse whole = aggregated.get();
				if (whole == null) {
					throw new CancellationException("The model round's stream ended before its end");
				}
				return whole;
			});
			if (!asked[0]) {
				sink.next(ChatClientResponse.builder().chatResponse(answer).context(request.context()).build());
			}
			sink.complete();
		}
		catch (Throwable ex) {
			sink.error(ex);
		}
	}

	private static void awaitEnd(CompletableFuture<Void> done) {
		try {
			done.get();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			done.cancel(false);
			throw new CancellationException("Interrupted while the model round streamed");
		}
		catch (ExecutionException ex) {
			Throwable failure = (ex.getCause() != null) ? ex.getCause() : ex;
			if (failure instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (failure instanceof Error error) {
				throw error;
			}
			throw new IllegalStateException("The model round's stream failed", failure);
		}
	}

	/** The recorded call of the request's round, or none when the round is not recorded. */
	private @Nullable IdempotentCall<ChatResponse> roundCall(ChatClientRequest request) {
		Map<String, Object> toolContext = (request.prompt().getOptions() instanceof ToolCallingChatOptions options
				&& options.getToolContext() != null) ? options.getToolContext() : Map.of();
		String runKey = Runs.runKey(toolContext);
		if (runKey == null) {
			return null;
		}
		if (modelRunsTheToolLoop(request.prompt().getOptions())) {
			if (this.warnedOfModelLoop.compareAndSet(false, true)) {
				logger.warn("The chat model runs the tool loop itself (Spring AI 1 without ToolCallAdvisor): its model "
						+ "rounds are not recorded, only its protected tool calls. Add ToolCallAdvisor, with the "
						+ "IdempotentToolCallingManager, to the ChatClient for the rounds to be recorded");
			}
			return null;
		}
		int round = Runs.roundOf(request.prompt().getInstructions());
		String key = DerivedKeys.uuid(runKey, "model-round", Runs.callName(toolContext), Integer.toString(round));
		return IdempotentCall.of(OPERATION, key, RecordedModelRound.CODEC)
			.withReportedMethod(IdempotentToolCallingManager.REPORTED_METHOD);
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
