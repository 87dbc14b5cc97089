package dev.modelgate.sample.agent;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.modelgate.idempotency.ai.IdempotentToolCallingManager;
import dev.modelgate.sample.provider.MockChatCompletionProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent endpoint over real HTTP with faults enabled, its Spring AI OpenAI client talking HTTP to the
 * gateway's own chat-completions endpoint and so to the mock provider: a run that crashes mid-way and is
 * retried as a whole never repeats a tool call that completed, nor a model round that was recorded,
 * counted in the mail outbox, the ticket desk and the mock provider. Each run has three model rounds
 * (send_email asked for, create_ticket asked for, the answer). On the memory store here; on Redis and
 * PostgreSQL in the subclasses.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "modelgate.sample.agent.faults-enabled=true")
class AgentRunTests {

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@LocalServerPort
	int port;

	@Autowired
	MailOutbox outbox;

	@Autowired
	TicketDesk tickets;

	@Autowired
	ApplicationContext context;

	@Autowired
	MockChatCompletionProvider model;

	private String recipient;

	private String task;

	private int modelCallsBefore;

	@DynamicPropertySource
	static void serverPort(DynamicPropertyRegistry registry) {
		AgentServerPort.register(registry);
	}

	@BeforeEach
	void uniqueRun() {
		this.recipient = UUID.randomUUID() + "@example.com";
		this.task = "Investigate outage " + UUID.randomUUID();
		this.modelCallsBefore = this.model.completions();
	}

	@Test
	void agentIsSpringAiWithTheStartersToolCallingManager() {
		assertThat(this.context.getBean(ToolCallingManager.class)).isInstanceOf(IdempotentToolCallingManager.class);
	}

	@Test
	void runMailsOpensATicketAndAnswersWithBothInThreeModelRounds() {
		HttpResponse<byte[]> run = run(UUID.randomUUID().toString());

		assertThat(run.statusCode()).isEqualTo(200);
		assertThat(mailsSent()).singleElement().satisfies((mail) -> {
			assertThat(mail.message().subject()).isEqualTo("Agent report: " + this.task);
			assertThat(mail.message().text()).isEqualTo("The agent is working on: " + this.task);
		});
		assertThat(ticketsOpened()).singleElement().extracting(Ticket::title).isEqualTo("Follow up: " + this.task);
		assertThat(modelCalls()).isEqualTo(3);
		assertThat(step(run, 1).path("name").asString()).isEqualTo("send_email");
		assertThat(step(run, 1).path("output").asString()).isEqualTo(mailsSent().get(0).messageId());
		assertThat(step(run, 1).path("tool_key").asString()).isEqualTo(mailsSent().get(0).idempotencyKey());
		assertThat(step(run, 2).path("name").asString()).isEqualTo("create_ticket");
		assertThat(step(run, 2).path("output").asString()).isEqualTo(ticketsOpened().get(0).id());
		assertThat(step(run, 3).path("name").asString()).isEqualTo("answer");
		assertThat(step(run, 3).path("output").asString())
			.isEqualTo("Done: " + mailsSent().get(0).messageId() + "; " + ticketsOpened().get(0).id() + ".");
	}

	/**
	 * The first attempt had the first model round (which asked for the mail) and the mail; the retry gets
	 * both from their records and asks the model only for the two rounds not recorded.
	 */
	@Test
	void runRetriedAfterACrashAfterTheMailMailsOnceAndAsksTheModelOnlyForTheRoundsNotRecorded() {
		String key = UUID.randomUUID().toString();

		HttpResponse<byte[]> crashed = run(key, "\"fail_after_step\":1");
		assertThat(crashed.statusCode()).isEqualTo(500);
		assertThat(json(crashed).path("error").path("code").asString()).isEqualTo("simulated_crash");
		assertThat(mailsSent()).hasSize(1);
		assertThat(ticketsOpened()).isEmpty();
		assertThat(modelCalls()).isEqualTo(1);
		HttpResponse<byte[]> retry = run(key);

		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(mailsSent()).hasSize(1);
		assertThat(ticketsOpened()).hasSize(1);
		assertThat(modelCalls()).as("each of the three model rounds once").isEqualTo(3);
		assertThat(step(retry, 1).path("output").asString()).isEqualTo(mailsSent().get(0).messageId());
		assertThat(step(retry, 1).path("tool_key").asString()).isEqualTo(mailsSent().get(0).idempotencyKey());
	}

	@Test
	void runRetriedAfterACrashAfterTheTicketRepeatsNoToolCallAndNoRecordedRound() {
		String key = UUID.randomUUID().toString();

		HttpResponse<byte[]> crashed = run(key, "\"fail_after_step\":2");
		assertThat(modelCalls()).isEqualTo(2);
		HttpResponse<byte[]> retry = run(key);

		assertThat(crashed.statusCode()).isEqualTo(500);
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(mailsSent()).hasSize(1);
		assertThat(ticketsOpened()).hasSize(1);
		assertThat(modelCalls()).isEqualTo(3);
		assertThat(step(retry, 2).path("output").asString()).isEqualTo(ticketsOpened().get(0).id());
	}

	/** Every round was recorded before the crash: the retry runs the agent again without the model or a tool. */
	@Test
	void runRetriedAfterACrashAfterTheAnswerAsksTheModelNothing() {
		String key = UUID.randomUUID().toString();

		HttpResponse<byte[]> crashed = run(key, "\"fail_after_step\":3");
		assertThat(modelCalls()).isEqualTo(3);
		HttpResponse<byte[]> retry = run(key);

		assertThat(crashed.statusCode()).isEqualTo(500);
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(modelCalls()).isEqualTo(3);
		assertThat(mailsSent()).hasSize(1);
		assertThat(ticketsOpened()).hasSize(1);
		assertThat(step(retry, 3).path("output").asString()).contains(mailsSent().get(0).messageId(),
				ticketsOpened().get(0).id());
	}

	@Test
	void severalCrashesAndRetriesStillMailOnce() {
		String key = UUID.randomUUID().toString();

		assertThat(run(key, "\"fail_after_step\":1").statusCode()).isEqualTo(500);
		assertThat(run(key, "\"fail_after_step\":1").statusCode()).isEqualTo(500);
		assertThat(run(key, "\"fail_after_step\":2").statusCode()).isEqualTo(500);
		assertThat(run(key).statusCode()).isEqualTo(200);

		assertThat(mailsSent()).hasSize(1);
		assertThat(ticketsOpened()).hasSize(1);
		assertThat(modelCalls()).isEqualTo(3);
	}

	@Test
	void completedRunRetriedIsReplayedWithoutAModelOrToolCall() {
		String key = UUID.randomUUID().toString();

		HttpResponse<byte[]> first = run(key);
		assertThat(first.statusCode()).isEqualTo(200);
		int modelCallsAfterFirst = modelCalls();
		List<SentMail> mailsAfterFirst = mailsSent();
		List<Ticket> ticketsAfterFirst = ticketsOpened();
		HttpResponse<byte[]> retry = run(key);

		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(modelCallsAfterFirst).isEqualTo(3);
		assertThat(modelCalls()).isEqualTo(modelCallsAfterFirst);
		assertThat(mailsSent()).isEqualTo(mailsAfterFirst).hasSize(1);
		assertThat(ticketsOpened()).isEqualTo(ticketsAfterFirst).hasSize(1);
	}

	@Test
	void mailWhoseAnswerWasLostIsFoundInTheOutboxInsteadOfSentAgain() {
		String key = UUID.randomUUID().toString();

		HttpResponse<byte[]> lost = run(key, "\"mail_timeout\":true");
		assertThat(lost.statusCode()).isEqualTo(502);
		assertThat(json(lost).path("error").path("code").asString()).isEqualTo("tool_outcome_unknown");
		assertThat(mailsSent()).hasSize(1);
		HttpResponse<byte[]> retry = run(key);

		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(mailsSent()).hasSize(1);
		assertThat(ticketsOpened()).hasSize(1);
		assertThat(step(retry, 1).path("output").asString()).isEqualTo(mailsSent().get(0).messageId());
	}

	@Test
	void twoClientsWithTheSameKeyRunSeparately() {
		String key = UUID.randomUUID().toString();

		HttpResponse<byte[]> alice = run(key, "Bearer alice");
		HttpResponse<byte[]> bob = run(key, "Bearer bob");

		assertThat(alice.statusCode()).isEqualTo(200);
		assertThat(bob.statusCode()).isEqualTo(200);
		assertThat(json(alice).path("run_id").asString()).isNotEqualTo(json(bob).path("run_id").asString());
		assertThat(mailsSent()).hasSize(2);
	}

	@Test
	void runWithoutAKeyIsRefused() {
		HttpResponse<byte[]> response = post(null, "Bearer agent", body());

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(json(response).path("error").path("code").asString()).isEqualTo("idempotency_key_missing");
		assertThat(mailsSent()).isEmpty();
	}

	private HttpResponse<byte[]> run(String key, String... extra) {
		String authorization = "Bearer agent";
		StringBuilder members = new StringBuilder();
		for (String member : extra) {
			if (member.startsWith("Bearer ")) {
				authorization = member;
			}
			else {
				members.append(',').append(member);
			}
		}
		return post(key, authorization, body() + members);
	}

	private String body() {
		return "{\"task\":\"" + this.task + "\",\"report_to\":\"" + this.recipient + "\"";
	}

	private HttpResponse<byte[]> post(String key, String authorization, String openBody) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/v1/agent/runs"))
			.header("Content-Type", "application/json")
			.header("Authorization", authorization)
			.POST(HttpRequest.BodyPublishers.ofString(openBody + "}"));
		if (key != null) {
			request.header("Idempotency-Key", key);
		}
		try {
			return this.http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
		}
		catch (IOException ex) {
			throw new IllegalStateException("Agent call failed", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
	}

	/** The model calls since the test began: the agent's, as no other request runs meanwhile. */
	private int modelCalls() {
		return this.model.completions() - this.modelCallsBefore;
	}

	private List<SentMail> mailsSent() {
		return this.outbox.sent().stream().filter((mail) -> mail.message().to().equals(this.recipient)).toList();
	}

	private List<Ticket> ticketsOpened() {
		return this.tickets.tickets().stream().filter((ticket) -> ticket.title().endsWith(this.task)).toList();
	}

	private static JsonNode step(HttpResponse<byte[]> response, int number) {
		return json(response).path("steps").get(number - 1);
	}

	private static JsonNode json(HttpResponse<byte[]> response) {
		return JsonMapper.shared().readTree(response.body());
	}

}
