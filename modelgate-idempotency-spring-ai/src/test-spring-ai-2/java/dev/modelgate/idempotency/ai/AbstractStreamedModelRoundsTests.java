package dev.modelgate.idempotency.ai;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.model.tool.ToolCallingManager;

import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyInProgressException;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Streamed model rounds on Spring AI 2: the agent of {@link AbstractIdempotentToolCallingTests}, its
 * {@code ChatClient} streaming ({@code stream: true} to the mock, server-sent chunks back), Spring AI 2's
 * tool calling advisor looping the rounds and {@link IdempotentModelRoundsAdvisor} recording them.
 * Counted at the mock: how often the model was asked.
 */
abstract class AbstractStreamedModelRoundsTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private MockOpenAiServer model;

	private AgentTools tools;

	private ChatClient chat;

	/** Unique to one test, so that runs on a shared server never meet the records of another test. */
	private final String run = "run-" + UUID.randomUUID();

	protected abstract IdempotencyStore store();

	@BeforeEach
	void startAgent() throws Exception {
		this.model = new MockOpenAiServer();
		this.tools = new AgentTools();
		IdempotencyTemplate template = new IdempotencyTemplate(
				IdempotencyCoordinator.create(store(), Duration.ofSeconds(2)), IdempotencyTemplate.Defaults.standard(),
				List.of());
		ToolCallingManager manager = new IdempotentToolCallingManager(ToolCallingManager.builder().build(), template,
				IdempotentToolPolicy.annotated(), Duration.ofSeconds(20));
		this.chat = SpringAiLine
			.recordedAgent(this.model.baseUrl(), manager, new IdempotentModelRoundsAdvisor(template))
			.defaultTools(this.tools)
			.build();
	}

	@AfterEach
	void stopModel() {
		this.model.close();
	}

	private Flux<String> stream(String runKey) {
		return this.chat.prompt()
			.user("Mail the weekly report to Ann and Bob, check order 42, open a follow-up ticket")
			.toolContext(Map.of(IdempotentToolCallingManager.RUN_KEY, runKey))
			.stream()
			.content();
	}

	private List<String> pieces(String runKey) {
		List<String> pieces = stream(runKey).collectList().block(TIMEOUT);
		assertThat(pieces).isNotNull();
		return pieces;
	}

	@Test
	void aStreamedRunIsRecordedAndItsReRunReplaysWithoutAskingTheModel() {
		List<String> first = pieces(this.run);
		assertThat(this.model.requests()).as("three rounds asked").isEqualTo(3);
		assertThat(first).as("the answer streamed through in pieces").hasSizeGreaterThan(1);
		String answer = String.join("", first);
		assertThat(answer).contains("-to-ann@example.com", "-to-bob@example.com", "order-42-open", "ticket-");

		List<String> second = pieces(this.run);

		assertThat(String.join("", second)).isEqualTo(answer);
		assertThat(second).as("a recorded round replays as one response").hasSize(1);
		assertThat(this.model.requests()).as("every round replayed").isEqualTo(3);
		assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(1);
		assertThat(this.tools.tickets).hasValue(1);
		// The record is the round's, streamed or not: a blocking re-run replays it too.
		String blocking = this.chat.prompt()
			.user("Mail the weekly report to Ann and Bob, check order 42, open a follow-up ticket")
			.toolContext(Map.of(IdempotentToolCallingManager.RUN_KEY, this.run))
			.call()
			.content();
		assertThat(blocking).isEqualTo(answer);
		assertThat(this.model.requests()).isEqualTo(3);
	}

	@Test
	void aStreamThatBreaksOffIsNotRecordedSoTheReRunAsksTheModelAgainFromThatRound() {
		this.model.breakNextStream = true;
		assertThatThrownBy(() -> pieces(this.run));
		assertThat(this.model.requests()).isEqualTo(3);

		String answer = String.join("", pieces(this.run));

		assertThat(this.model.requests()).as("rounds 0 and 1 replayed, round 2 asked again").isEqualTo(4);
		assertThat(answer).contains("-to-ann@example.com", "ticket-");
		assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(1);
		assertThat(this.tools.tickets).hasValue(1);
		pieces(this.run);
		assertThat(this.model.requests()).as("now recorded").isEqualTo(4);
	}

	@Test
	void aStreamCancelledBeforeItsEndIsNotRecorded() {
		List<String> firstPiece = stream(this.run).take(1).collectList().block(TIMEOUT);
		assertThat(firstPiece).hasSize(1);
		assertThat(this.model.requests()).isEqualTo(3);

		// The cancelled round's key is released on another thread: until then the re-run finds it running
		// (and asks no model: rounds 0 and 1 replay, round 2 is refused).
		AtomicReference<String> answered = new AtomicReference<>();
		await().atMost(TIMEOUT).until(() -> {
			try {
				answered.set(String.join("", pieces(this.run)));
				return true;
			}
			catch (IdempotencyInProgressException ex) {
				return false;
			}
		});
		String answer = answered.get();

		assertThat(this.model.requests()).as("the cancelled round asked again").isEqualTo(4);
		assertThat(answer).startsWith(firstPiece.get(0));
		assertThat(this.tools.tickets).hasValue(1);
	}

	@Test
	void otherRunsAskTheModel() {
		String first = String.join("", pieces(this.run));
		String other = String.join("", pieces(this.run + "-other"));

		assertThat(other).isNotEqualTo(first);
		assertThat(this.model.requests()).isEqualTo(6);
	}

}
