package dev.modelgate.idempotency.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.modelgate.idempotency.ai.IdempotentModelRoundsAdvisor;
import dev.modelgate.idempotency.ai.IdempotentToolCallingManager;
import dev.modelgate.idempotency.ai.IdempotentToolPolicy;
import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;

/**
 * What recording adds to a Spring AI tool call and to a model round, beside the same call unrecorded, in
 * one run: the tool call through Spring AI's {@link ToolCallingManager} alone, through
 * {@link IdempotentToolCallingManager} with a new run (the tool runs and its result is recorded) and with a
 * run already recorded (the result is replayed, the tool does not run); a {@link ChatClient} round on a
 * model that answers at once (about 1 KB), without {@link IdempotentModelRoundsAdvisor}, with it on a new run
 * and on a recorded run. The model and the tool cost nothing here, so the difference is the recording's own
 * cost; a real model round costs seconds and a real tool call milliseconds.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SpringAiRecordingBenchmark {

	private static final int REDIS_PORT = Integer.getInteger("redis.port", 6379);

	private static final String ANSWER = "The weekly report went to Ann. ".repeat(32);

	@Param({ "memory", "redis" })
	public String store;

	private LettuceConnectionFactory redis;

	private IdempotencyStore idempotencyStore;

	private List<ToolCallback> tools;

	private ToolCallingManager plainTools;

	private ToolCallingManager recordedTools;

	private ChatClient plainRounds;

	private ChatClient recordedRounds;

	private final String recordedRun = "run-" + UUID.randomUUID();

	private final MailTool mailTool = new MailTool();

	private final AnsweringModel model = new AnsweringModel();

	@Setup(Level.Trial)
	public void start() {
		if ("redis".equals(this.store)) {
			this.redis = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", REDIS_PORT));
			this.redis.afterPropertiesSet();
			this.redis.start();
			this.idempotencyStore = new RedisIdempotencyStore(this.redis, "modelgate:benchmark:ai:");
		}
		else {
			this.idempotencyStore = new InMemoryIdempotencyStore();
		}
		IdempotencyTemplate template = new IdempotencyTemplate(
				IdempotencyCoordinator.create(this.idempotencyStore, Duration.ofSeconds(30)));
		this.tools = List.of(MethodToolCallbackProvider.builder().toolObjects(this.mailTool).build().getToolCallbacks());
		this.plainTools = ToolCallingManager.builder().build();
		this.recordedTools = new IdempotentToolCallingManager(this.plainTools, template, IdempotentToolPolicy.allTools(),
				Duration.ZERO);
		this.plainRounds = ChatClient.builder(this.model).build();
		this.recordedRounds = ChatClient.builder(this.model)
			.defaultAdvisors(new IdempotentModelRoundsAdvisor(template))
			.build();
		toolCall(this.recordedTools, this.recordedRun);
		round(this.recordedRounds, this.recordedRun);
		int mails = this.mailTool.sent.get();
		int answers = this.model.answers.get();
		toolCall(this.recordedTools, this.recordedRun);
		round(this.recordedRounds, this.recordedRun);
		if (this.mailTool.sent.get() != mails || this.model.answers.get() != answers) {
			throw new IllegalStateException("A recorded run was not replayed: the benchmark would measure nothing");
		}
	}

	@TearDown(Level.Trial)
	public void stop() throws Exception {
		if (this.idempotencyStore instanceof AutoCloseable closeable) {
			closeable.close();
		}
		if (this.redis != null) {
			this.redis.destroy();
		}
	}

	@Benchmark
	public Object toolCallUnrecorded() {
		return toolCall(this.plainTools, "run-" + UUID.randomUUID());
	}

	@Benchmark
	public Object toolCallRecordedNewRun() {
		return toolCall(this.recordedTools, "run-" + UUID.randomUUID());
	}

	@Benchmark
	public Object toolCallReplayed() {
		return toolCall(this.recordedTools, this.recordedRun);
	}

	@Benchmark
	public String roundUnrecorded() {
		return round(this.plainRounds, "run-" + UUID.randomUUID());
	}

	@Benchmark
	public String roundRecordedNewRun() {
		return round(this.recordedRounds, "run-" + UUID.randomUUID());
	}

	@Benchmark
	public String roundReplayed() {
		return round(this.recordedRounds, this.recordedRun);
	}

	private Object toolCall(ToolCallingManager manager, String run) {
		Prompt prompt = new Prompt(List.of(new UserMessage("Mail the weekly report to Ann")),
				ToolCallingChatOptions.builder()
					.toolCallbacks(this.tools)
					.toolContext(Map.of(IdempotentToolCallingManager.RUN_KEY, run))
					.build());
		AssistantMessage answer = AssistantMessage.builder()
			.content("")
			.toolCalls(List.of(new AssistantMessage.ToolCall("call_1", "function", "send_email",
					"{\"to\":\"ann@example.com\",\"text\":\"the weekly report\"}")))
			.build();
		return manager.executeToolCalls(prompt, new ChatResponse(List.of(new Generation(answer))));
	}

	private static String round(ChatClient chat, String run) {
		return chat.prompt()
			.user("Write the weekly report")
			.toolContext(Map.of(IdempotentToolCallingManager.RUN_KEY, run))
			.call()
			.content();
	}

	/** A tool that costs nothing, so that only the recording is measured. */
	public static class MailTool {

		final AtomicInteger sent = new AtomicInteger();

		@Tool(name = "send_email", description = "Send an e-mail")
		public String sendEmail(String to, String text) {
			this.sent.incrementAndGet();
			return "mail-1-to-" + to;
		}

	}

	/** A model that answers at once; its options carry the tool context, as a real chat model's do. */
	static final class AnsweringModel implements ChatModel {

		final AtomicInteger answers = new AtomicInteger();

		@Override
		public ChatResponse call(Prompt prompt) {
			this.answers.incrementAndGet();
			return new ChatResponse(List.of(new Generation(new AssistantMessage(ANSWER))));
		}

		@Override
		public ChatOptions getOptions() {
			return ToolCallingChatOptions.builder().build();
		}

	}

}
