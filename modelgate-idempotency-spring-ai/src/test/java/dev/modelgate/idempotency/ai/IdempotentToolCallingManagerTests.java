package dev.modelgate.idempotency.ai;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;

import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.core.OutcomeUnknownException;
import dev.modelgate.idempotency.core.Reconciliation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link IdempotentToolCallingManager} around Spring AI's own manager, given a model answer directly:
 * failures recorded and unknown, the tool policy, and the round's positions.
 */
class IdempotentToolCallingManagerTests {

	private final Tools tools = new Tools();

	private final IdempotencyTemplate template = new IdempotencyTemplate(
			IdempotencyCoordinator.create(new InMemoryIdempotencyStore(), Duration.ofSeconds(2)));

	private final String run = "run-" + UUID.randomUUID();

	private ToolCallingManager manager(IdempotentToolPolicy policy) {
		return new IdempotentToolCallingManager(ToolCallingManager.builder().build(), this.template, policy,
				Duration.ZERO);
	}

	private String call(ToolCallingManager manager, String tool, Map<String, Object> toolContext) {
		Prompt prompt = new Prompt(List.of(new UserMessage("go")), ToolCallingChatOptions.builder()
			.toolCallbacks(MethodToolCallbackProvider.builder().toolObjects(this.tools).build().getToolCallbacks())
			.toolContext(toolContext)
			.build());
		AssistantMessage answer = AssistantMessage.builder()
			.content("")
			.toolCalls(List.of(new AssistantMessage.ToolCall("call_" + UUID.randomUUID(), "function", tool,
					"{\"to\":\"ann@example.com\"}")))
			.build();
		List<Message> history = manager.executeToolCalls(prompt, new ChatResponse(List.of(new Generation(answer))))
			.conversationHistory();
		return ((ToolResponseMessage) history.get(history.size() - 1)).getResponses().get(0).responseData();
	}

	private String call(ToolCallingManager manager, String tool) {
		return call(manager, tool, Map.of(IdempotentToolCallingManager.RUN_KEY, this.run));
	}

	@Test
	void aRecordedFailureIsGivenToTheModelAgainWithoutRunningTheTool() {
		ToolCallingManager manager = manager(IdempotentToolPolicy.annotated());

		String first = call(manager, "reject_mail");
		String second = call(manager, "reject_mail");

		assertThat(first).contains("no such recipient");
		assertThat(second).contains("no such recipient");
		assertThat(this.tools.rejected).hasValue(1);
	}

	@Test
	void anUnknownOutcomeStopsTheReRunInsteadOfCallingTheToolAgain() {
		ToolCallingManager manager = manager(IdempotentToolPolicy.annotated());

		assertThat(call(manager, "time_out")).contains("no answer after sending");
		assertThatExceptionOfType(OutcomeUnknownException.class).isThrownBy(() -> call(manager, "time_out"));
		assertThat(this.tools.timedOut).hasValue(1);
	}

	@Test
	void anUnknownOutcomeFoundByTheReconcilerIsRecordedAndGoesToTheModel() {
		List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
		ToolCallingManager manager = manager(IdempotentToolPolicy.annotated().reconciling("time_out", (key, arguments) -> {
			asked.add(key);
			return Reconciliation.found("sent, found by " + key);
		}));

		call(manager, "time_out");
		String reconciled = call(manager, "time_out");
		String replayed = call(manager, "time_out");

		assertThat(asked).hasSize(1);
		assertThat(reconciled).isEqualTo("sent, found by " + asked.get(0));
		assertThat(replayed).isEqualTo(reconciled);
		assertThat(this.tools.timedOut).hasValue(1);
	}

	@Test
	void anUnknownOutcomeTheReconcilerDoesNotFindRunsTheToolAgain() {
		ToolCallingManager manager = manager(
				IdempotentToolPolicy.annotated().reconciling("time_out", (key, arguments) -> Reconciliation.notFound()));

		call(manager, "time_out");
		call(manager, "time_out");

		assertThat(this.tools.timedOut).hasValue(2);
	}

	@Test
	void aReleasedFailureRunsTheToolAgain() {
		ToolCallingManager manager = manager(IdempotentToolPolicy.annotated());

		call(manager, "fail_once");
		String second = call(manager, "fail_once");

		assertThat(second).contains("sent on attempt 2");
		assertThat(call(manager, "fail_once")).as("then recorded").contains("sent on attempt 2");
		assertThat(this.tools.attempts).hasValue(2);
	}

	@Test
	void toolsThePolicyDoesNotNameRunEveryTime() {
		ToolCallingManager annotated = manager(IdempotentToolPolicy.annotated());
		call(annotated, "plain_mail");
		call(annotated, "plain_mail");
		assertThat(this.tools.plain).hasValue(2);

		ToolCallingManager all = manager(IdempotentToolPolicy.allTools());
		call(all, "plain_mail");
		call(all, "plain_mail");
		assertThat(this.tools.plain).hasValue(3);
	}

	@Test
	void withoutARunKeyOrAttemptTheCallsGoToSpringAiUnchanged() {
		ToolCallingManager manager = manager(IdempotentToolPolicy.allTools());

		call(manager, "plain_mail", Map.of());
		call(manager, "plain_mail", Map.of());

		assertThat(this.tools.plain).hasValue(2);
	}

	@Test
	void chatCallsOfOneRunWithTheirOwnNamesDoNotShareKeys() {
		ToolCallingManager manager = manager(IdempotentToolPolicy.annotated());
		Map<String, Object> plan = Map.of(IdempotentToolCallingManager.RUN_KEY, this.run,
				IdempotentToolCallingManager.CALL_NAME, "plan");
		Map<String, Object> act = Map.of(IdempotentToolCallingManager.RUN_KEY, this.run,
				IdempotentToolCallingManager.CALL_NAME, "act");

		String planned = call(manager, "fail_once", plan);
		String acted = call(manager, "fail_once", act);
		String replanned = call(manager, "fail_once", plan);

		assertThat(this.tools.attempts).as("the first attempt failed, then one run per named call").hasValue(3);
		assertThat(acted).isNotEqualTo(replanned);
		assertThat(acted).contains("sent on attempt 2");
		assertThat(replanned).contains("sent on attempt 3").isEqualTo(call(manager, "fail_once", plan));
		assertThat(call(manager, "fail_once", act)).isEqualTo(acted);
		assertThat(this.tools.attempts).hasValue(3);
		assertThat(planned).contains("mail server down");
	}

	@Test
	void readsTheProtectionFromTheAnnotation() {
		var callbacks = MethodToolCallbackProvider.builder().toolObjects(this.tools).build().getToolCallbacks();
		IdempotentToolPolicy annotated = IdempotentToolPolicy.annotated();
		for (var callback : callbacks) {
			ToolProtection protection = annotated.protectionOf(callback);
			switch (callback.getToolDefinition().name()) {
				case "plain_mail" -> assertThat(protection).isNull();
				case "fail_once" -> assertThat(protection).isEqualTo(ToolProtection.standard());
				case "reject_mail" -> assertThat(protection.failurePolicy().classify(new IllegalArgumentException()))
					.isEqualTo(dev.modelgate.idempotency.core.FailurePolicy.Action.RECORD);
				case "time_out" -> assertThat(protection.onArgumentMismatch()).isEqualTo(ArgumentMismatch.REFUSE);
				default -> throw new AssertionError(callback.getToolDefinition().name());
			}
		}
	}

	static class Tools {

		final AtomicInteger rejected = new AtomicInteger();

		final AtomicInteger timedOut = new AtomicInteger();

		final AtomicInteger attempts = new AtomicInteger();

		final AtomicInteger plain = new AtomicInteger();

		@Tool(name = "reject_mail", description = "Send a mail the server rejects")
		@IdempotentTool(recordOn = IllegalArgumentException.class)
		public String rejectMail(String to) {
			this.rejected.incrementAndGet();
			throw new IllegalArgumentException("no such recipient: " + to);
		}

		@Tool(name = "time_out", description = "Send a mail whose answer is lost")
		@IdempotentTool(unknownOn = LostAnswerException.class, onArgumentMismatch = ArgumentMismatch.REFUSE)
		public String timeOut(String to) {
			this.timedOut.incrementAndGet();
			throw new LostAnswerException("no answer after sending to " + to);
		}

		@Tool(name = "fail_once", description = "Send a mail, failing the first time")
		@IdempotentTool
		public String failOnce(String to) {
			int attempt = this.attempts.incrementAndGet();
			if (attempt == 1) {
				throw new IllegalStateException("mail server down");
			}
			return "sent on attempt " + attempt;
		}

		@Tool(name = "plain_mail", description = "Send a mail, unprotected")
		public String plainMail(String to) {
			this.plain.incrementAndGet();
			return "sent";
		}

	}

	static class LostAnswerException extends RuntimeException {

		LostAnswerException(String message) {
			super(message);
		}

	}

}
