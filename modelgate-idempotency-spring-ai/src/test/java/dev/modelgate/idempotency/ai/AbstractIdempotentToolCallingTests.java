package dev.modelgate.idempotency.ai;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.model.tool.ToolCallingManager;

import dev.modelgate.idempotency.core.DerivedKeys;
import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyDecision;
import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.core.IdempotencyOutcome;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.ResultCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * An agent on Spring AI's real ChatClient and OpenAI chat model, talking HTTP to an OpenAI-compatible
 * server that asks for tool calls, with {@link IdempotentToolCallingManager} around Spring AI's own
 * manager. Counted at the tools: how often each really ran. Run on each store, and on both Spring AI
 * lines ({@link SpringAiLine} puts the agent together).
 */
abstract class AbstractIdempotentToolCallingTests {

	private MockOpenAiServer model;

	private AgentTools tools;

	private IdempotencyTemplate template;

	private final List<IdempotencyDecision> decisions = new java.util.concurrent.CopyOnWriteArrayList<>();

	private ChatClient chat;

	/** The same agent, its model rounds recorded too. */
	private ChatClient recordedChat;

	/** Unique to one test, so that runs on a shared server never meet the records of another test. */
	private final String run = "run-" + UUID.randomUUID();

	protected abstract IdempotencyStore store();

	@BeforeEach
	void startAgent() throws Exception {
		this.model = new MockOpenAiServer();
		this.tools = new AgentTools();
		IdempotencyListener listener = new IdempotencyListener() {
			@Override
			public void onDecision(IdempotencyDecision decision) {
				AbstractIdempotentToolCallingTests.this.decisions.add(decision);
			}
		};
		this.template = new IdempotencyTemplate(IdempotencyCoordinator.create(store(), Duration.ofSeconds(2)),
				IdempotencyTemplate.Defaults.standard(), List.of(listener));
		ToolCallingManager manager = new IdempotentToolCallingManager(ToolCallingManager.builder().build(),
				this.template, IdempotentToolPolicy.annotated(), Duration.ofSeconds(20));
		this.chat = SpringAiLine.agent(this.model.baseUrl(), manager).defaultTools(this.tools).build();
		this.recordedChat = SpringAiLine
			.recordedAgent(this.model.baseUrl(), manager, new IdempotentModelRoundsAdvisor(this.template))
			.defaultTools(this.tools)
			.build();
	}

	@AfterEach
	void stopModel() {
		this.model.close();
	}

	private String runAgent(String runKey) {
		return runAgent(this.chat, runKey);
	}

	private static String runAgent(ChatClient chat, String runKey) {
		return chat.prompt()
			.user("Mail the weekly report to Ann and Bob, check order 42, open a follow-up ticket")
			.toolContext(Map.of(IdempotentToolCallingManager.RUN_KEY, runKey))
			.call()
			.content();
	}

	@Test
	void reRunWithTheSameRunKeyRunsEachProtectedToolOnceAndGivesTheModelTheRecordedResults() {
		String first = runAgent(this.run);
		String second = runAgent(this.run);

		assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(1);
		assertThat(this.tools.mailsTo("bob@example.com")).isEqualTo(1);
		assertThat(this.tools.tickets).hasValue(1);
		assertThat(this.tools.lookups).as("the unprotected tool runs on every run").hasValue(2);
		assertThat(first).contains("mail-", "-to-ann@example.com", "-to-bob@example.com", "order-42-open", "ticket-");
		assertThat(second).as("the model got the recorded results").isEqualTo(first);
		assertThat(this.model.requests()).as("the model is asked again on a re-run").isEqualTo(6);
		assertThat(this.decisions).filteredOn((decision) -> decision.outcome() == IdempotencyOutcome.REPLAYED)
			.extracting(IdempotencyDecision::method, IdempotencyDecision::route)
			.containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("TOOL", "agent.tool.send_email"),
					org.assertj.core.groups.Tuple.tuple("TOOL", "agent.tool.send_email"),
					org.assertj.core.groups.Tuple.tuple("TOOL", "agent.tool.create_ticket"));
	}

	@Test
	void eachCallGetsTheKeyDerivedFromRunRoundPositionAndTool() {
		runAgent(this.run);

		// create_ticket is the only call (position 0) of the second round (1).
		assertThat(this.tools.ticketKeys)
			.containsExactly(DerivedKeys.forTool(DerivedKeys.hex("run-key", this.run), "1.0", "create_ticket"));
	}

	@Test
	void differentRunKeysRunTheToolsAgain() {
		String first = runAgent(this.run);
		String second = runAgent(this.run + "-other");

		assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(2);
		assertThat(this.tools.mailsTo("bob@example.com")).isEqualTo(2);
		assertThat(this.tools.tickets).hasValue(2);
		assertThat(second).isNotEqualTo(first);
	}

	@Test
	void withoutARunKeyNothingChanges() {
		for (int i = 0; i < 2; i++) {
			String answer = this.chat.prompt()
				.user("Mail the weekly report")
				.toolContext(Map.of("tenant", "acme"))
				.call()
				.content();
			assertThat(answer).contains("-to-ann@example.com");
		}

		assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(2);
		assertThat(this.tools.tickets).hasValue(2);
		assertThat(this.tools.ticketKeys).containsOnlyNulls();
		assertThat(this.decisions).isEmpty();
	}

	@Test
	void concurrentDuplicatesOfARunRunEachToolOnce() throws Exception {
		int duplicates = 4;
		// The first mail waits until every duplicate has asked the model for its first round, so the
		// duplicates reach the tool calls while the first one still runs.
		this.tools.beforeSending = () -> await().atMost(Duration.ofSeconds(10))
			.until(() -> this.model.firstRoundRequests() == duplicates);
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService threads = Executors.newFixedThreadPool(duplicates);
		try {
			List<Future<String>> answers = new ArrayList<>();
			for (int i = 0; i < duplicates; i++) {
				answers.add(threads.submit(() -> {
					start.await();
					return runAgent(this.run);
				}));
			}
			start.countDown();
			List<String> results = new ArrayList<>();
			for (Future<String> answer : answers) {
				results.add(answer.get(60, TimeUnit.SECONDS));
			}

			assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(1);
			assertThat(this.tools.mailsTo("bob@example.com")).isEqualTo(1);
			assertThat(this.tools.tickets).hasValue(1);
			assertThat(results).hasSize(duplicates).allSatisfy((answer) -> assertThat(answer).isEqualTo(results.get(0)));
		}
		finally {
			threads.shutdownNow();
		}
	}

	@Test
	void reRunWhoseModelChangesTheArgumentsGetsTheRecordedResultWithANote() {
		String first = runAgent(this.run);
		this.model.annText = "Weekly report, corrected";

		runAgent(this.run);

		assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(1);
		assertThat(this.model.toolResults()).anySatisfy((result) -> assertThat(result)
			.startsWith(IdempotentToolCallingManager.MISMATCH_NOTE)
			.endsWith(first.substring(0, first.indexOf('|'))));
	}

	@Test
	void aToolThatRefusesOtherArgumentsEndsTheReRun() {
		runAgent(this.run);
		this.model.ticketTitle = "Another ticket";

		assertThatThrownBy(() -> runAgent(this.run)).satisfies((failure) -> assertThat(causes(failure))
			.hasAtLeastOneElementOfType(ToolArgumentsMismatchException.class));
		assertThat(this.tools.tickets).hasValue(1);
	}

	@Test
	void aFailedToolCallIsReleasedSoTheReRunCallsItAgain() {
		this.tools.beforeSending = () -> {
			throw new IllegalStateException("mail server down");
		};
		String first = runAgent(this.run);
		assertThat(first).doesNotContain("-to-ann@example.com");
		this.tools.beforeSending = () -> {
		};

		String second = runAgent(this.run);

		assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(1);
		assertThat(second).contains("-to-ann@example.com", "-to-bob@example.com");
		assertThat(this.tools.tickets).as("recorded by the first run").hasValue(1);
	}

	@Test
	void aKeyedOperationThatFailsAfterItsToolsRanIsReRunWithoutRunningThemAgain() {
		String operationKey = "order-42-" + this.run;
		boolean[] crash = { true };
		IdempotencyTemplate operations = this.template;
		// The run key is the scope of the operation's attempt: no run key in the tool context.
		java.util.function.Supplier<String> agent = () -> this.chat.prompt()
			.user("Mail the weekly report")
			.toolContext(Map.of("tenant", "acme"))
			.call()
			.content();

		assertThatThrownBy(() -> operations.execute("agent.run", operationKey, ResultCodec.utf8(), () -> {
			String answer = agent.get();
			if (crash[0]) {
				throw new IllegalStateException("crashed after the tools ran");
			}
			return answer;
		})).hasMessage("crashed after the tools ran");
		crash[0] = false;
		String answer = operations.execute("agent.run", operationKey, ResultCodec.utf8(), () -> agent.get());

		assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(1);
		assertThat(this.tools.mailsTo("bob@example.com")).isEqualTo(1);
		assertThat(this.tools.tickets).hasValue(1);
		assertThat(this.tools.lookups).hasValue(2);
		assertThat(answer).contains("-to-ann@example.com");

		// Another operation key is another run.
		operations.execute("agent.run", operationKey + "-other", ResultCodec.utf8(), () -> agent.get());
		assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(2);
	}

	@Test
	void recordedModelRoundsAreReplayedSoAReRunDoesNotAskTheModelAgain() {
		String first = runAgent(this.recordedChat, this.run);
		String second = runAgent(this.recordedChat, this.run);

		assertThat(second).isEqualTo(first);
		assertThat(this.model.requests()).isEqualTo(3);
		assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(1);
		assertThat(this.tools.lookups).as("an unprotected tool still runs").hasValue(2);
	}

	@Test
	void aReRunAfterAFailedModelRoundAsksTheModelOnlyFromThatRound() {
		this.model.failNextAnswer = true;
		assertThatThrownBy(() -> runAgent(this.recordedChat, this.run));
		assertThat(this.model.requests()).isEqualTo(3);

		String answer = runAgent(this.recordedChat, this.run);

		assertThat(this.model.requests()).as("rounds 0 and 1 replayed, round 2 asked").isEqualTo(4);
		assertThat(answer).contains("-to-ann@example.com", "ticket-");
		assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(1);
		assertThat(this.tools.tickets).hasValue(1);
		assertThat(runAgent(this.recordedChat, this.run + "-other")).isNotEqualTo(answer);
		assertThat(this.model.requests()).as("another run asks the model").isEqualTo(7);
	}

	private static List<Throwable> causes(Throwable failure) {
		List<Throwable> causes = new ArrayList<>();
		for (Throwable cause = failure; cause != null && !causes.contains(cause); cause = cause.getCause()) {
			causes.add(cause);
		}
		return causes;
	}

}
