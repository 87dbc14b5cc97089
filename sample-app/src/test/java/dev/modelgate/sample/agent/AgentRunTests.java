package dev.modelgate.sample.agent;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.modulith.events.core.EventPublicationRegistry;
import org.springframework.modulith.events.core.EventSerializer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent endpoint over real HTTP with faults enabled: a run that crashes mid-way and is retried
 * as a whole never repeats a tool call that completed, counted in the mail outbox and the ticket desk.
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

	private String recipient;

	private String task;

	@BeforeEach
	void uniqueRun() {
		this.recipient = UUID.randomUUID() + "@example.com";
		this.task = "Investigate outage " + UUID.randomUUID();
	}

	@Test
	void runRetriedAfterACrashAfterTheMailStepDoesNotMailAgain() {
		String key = UUID.randomUUID().toString();

		HttpResponse<byte[]> crashed = run(key, "\"fail_after_step\":2");
		HttpResponse<byte[]> retry = run(key);

		assertThat(crashed.statusCode()).isEqualTo(500);
		assertThat(json(crashed).path("error").path("code").asString()).isEqualTo("simulated_crash");
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(mailsSent()).hasSize(1);
		assertThat(ticketsOpened()).hasSize(1);
		assertThat(step(retry, 2).path("output").asString()).isEqualTo(mailsSent().get(0).messageId());
		assertThat(step(retry, 2).path("tool_key").asString()).isEqualTo(mailsSent().get(0).idempotencyKey());
	}

	@Test
	void runRetriedAfterACrashAfterTheTicketStepRepeatsNoToolCall() {
		String key = UUID.randomUUID().toString();

		HttpResponse<byte[]> crashed = run(key, "\"fail_after_step\":3");
		HttpResponse<byte[]> retry = run(key);

		assertThat(crashed.statusCode()).isEqualTo(500);
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(mailsSent()).hasSize(1);
		assertThat(ticketsOpened()).hasSize(1);
		assertThat(step(retry, 3).path("output").asString()).isEqualTo(ticketsOpened().get(0).id());
	}

	@Test
	void severalCrashesAndRetriesStillMailOnce() {
		String key = UUID.randomUUID().toString();

		assertThat(run(key, "\"fail_after_step\":2").statusCode()).isEqualTo(500);
		assertThat(run(key, "\"fail_after_step\":2").statusCode()).isEqualTo(500);
		assertThat(run(key, "\"fail_after_step\":3").statusCode()).isEqualTo(500);
		assertThat(run(key).statusCode()).isEqualTo(200);

		assertThat(mailsSent()).hasSize(1);
		assertThat(ticketsOpened()).hasSize(1);
	}

	@Test
	void crashBeforeTheMailStepMailsOnTheRetry() {
		String key = UUID.randomUUID().toString();

		assertThat(run(key, "\"fail_after_step\":1").statusCode()).isEqualTo(500);
		assertThat(mailsSent()).isEmpty();
		assertThat(run(key).statusCode()).isEqualTo(200);

		assertThat(mailsSent()).hasSize(1);
	}

	@Test
	void completedRunIsReplayedByItsRunKey() {
		String key = UUID.randomUUID().toString();

		HttpResponse<byte[]> first = run(key);
		HttpResponse<byte[]> retry = run(key);

		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(mailsSent()).hasSize(1);
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
		assertThat(step(retry, 2).path("output").asString()).isEqualTo(mailsSent().get(0).messageId());
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

	/** The default profile mails directly: no broker connection factory, no event publication registry, no database. */
	@Test
	void defaultProfileMailsDirectlyWithoutABrokerOrAnEventRegistry() {
		assertThat(this.context.getBean(MailSender.class)).isInstanceOf(DirectMailSender.class);
		assertThat(this.context.getBeanNamesForType(ConnectionFactory.class)).isEmpty();
		assertThat(this.context.getBeanNamesForType(EventPublicationRegistry.class)).isEmpty();
		assertThat(this.context.getBeanNamesForType(EventSerializer.class)).isEmpty();
		assertThat(this.context.getBeanNamesForType(DataSource.class)).isEmpty();
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
