package dev.modelgate.sample.outbox;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.config.ContainerCustomizer;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.modulith.events.IncompleteEventPublications;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.modelgate.idempotency.micrometer.MicrometerIdempotencyListener;
import dev.modelgate.idempotency.outbox.IdempotentEventHeaders;
import dev.modelgate.sample.agent.AgentServerPort;
import dev.modelgate.sample.agent.MailOutbox;
import dev.modelgate.sample.agent.SentMail;
import dev.modelgate.sample.faults.OutboxFaults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The outbox profile on the real PostgreSQL (PGHOST/PGPORT/PGDATABASE/PGUSER, default
 * 127.0.0.1:5432/test/postgres) and RabbitMQ (RABBITMQ_HOST/RABBITMQ_PORT, default 127.0.0.1:5672,
 * guest): an agent run's mail goes through the event publication registry and the mail queue, with its
 * derived key as {@code Idempotency-Key}, and reaches the sink once, however often the run is retried,
 * the message is published again or redelivered, or the publication is resubmitted after a failure
 * between the commit and the delivery. Counted in the sink, in the registry's table and in the
 * consumer's runs.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.sample.faults.enabled=true",
				"modelgate.idempotency.jdbc.table-name=modelgate_idempotency_sample_outbox_test",
				// Only what a test publishes goes out while it runs (no start-up republication of earlier runs' leftovers).
				"spring.modulith.events.republish-outstanding-events-on-restart=false" })
@ActiveProfiles("outbox")
@Import(OutboxMailTests.ReceivedMessages.class)
class OutboxMailTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final String PUBLICATIONS = "modelgate_sample.event_publication";

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@LocalServerPort
	int port;

	@Autowired
	MailOutbox outbox;

	@Autowired
	MailConsumer consumer;

	@Autowired
	OutboxFaults faults;

	@Autowired
	Received received;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	RabbitTemplate rabbit;

	@Autowired
	AmqpAdmin admin;

	@Autowired
	MeterRegistry meters;

	@Autowired
	IncompleteEventPublications incompletePublications;

	private String recipient;

	private String task;

	@DynamicPropertySource
	static void serverPort(DynamicPropertyRegistry registry) {
		AgentServerPort.register(registry);
	}

	@BeforeEach
	void uniqueRun() {
		this.recipient = UUID.randomUUID() + "@example.com";
		this.task = "Investigate outage " + UUID.randomUUID();
	}

	@Test
	void agentRunMailsOnceThroughTheQueueAndItsRetryIsAReplayThatPublishesNothing() {
		String key = UUID.randomUUID().toString();

		HttpResponse<byte[]> first = run(key);
		assertThat(first.statusCode()).isEqualTo(200);
		String eventKey = eventKey(first);
		await().atMost(TIMEOUT).until(() -> mailsSent().size() == 1);
		await().atMost(TIMEOUT).until(() -> completedPublications() == 1);

		HttpResponse<byte[]> retry = run(key);

		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(publications()).isEqualTo(1);
		assertThat(publicationsCarrying(eventKey)).isEqualTo(1);
		assertThat(mailsSent()).singleElement().extracting(SentMail::idempotencyKey).isEqualTo(eventKey);
		assertThat(this.received.headersFor(eventKey)).containsExactly(eventKey);
		assertThat(this.consumer.runs(eventKey)).isEqualTo(1);
	}

	@Test
	void messagePublishedAgainIsSkippedByTheConsumer() {
		String eventKey = eventKey(run(UUID.randomUUID().toString()));
		await().atMost(TIMEOUT).until(() -> mailsSent().size() == 1);
		Message delivered = this.received.messagesFor(eventKey).get(0);
		double replayedBefore = listenerDecisions("replayed");

		MessageProperties properties = new MessageProperties();
		properties.setContentType(delivered.getMessageProperties().getContentType());
		delivered.getMessageProperties().getHeaders().forEach(properties::setHeader);
		this.rabbit.send(MailQueueConfiguration.EXCHANGE, MailQueueConfiguration.ROUTING_KEY,
				new Message(delivered.getBody(), properties));

		await().atMost(TIMEOUT).until(() -> this.received.messagesFor(eventKey).size() == 2);
		await().atMost(TIMEOUT).until(() -> listenerDecisions("replayed") == replayedBefore + 1 && queued() == 0);
		assertThat(this.received.headersFor(eventKey)).containsExactly(eventKey, eventKey);
		assertThat(mailsSent()).hasSize(1);
		assertThat(this.consumer.runs(eventKey)).isEqualTo(1);
	}

	@Test
	void messageRequeuedByTheBrokerAfterTheConsumerFailedBeforeItsAckIsSkipped() {
		this.faults.failNextConsumerAck();
		double unavailableBefore = listenerDecisions("result_unavailable");

		String eventKey = eventKey(run(UUID.randomUUID().toString()));

		// The consumer delivered and committed, then failed before the ack: the broker requeues the message and
		// delivers it again, flagged redelivered; the redelivery finds the key applied and is acknowledged.
		await().atMost(TIMEOUT)
			.until(() -> this.received.messagesFor(eventKey).size() == 2
					&& listenerDecisions("result_unavailable") == unavailableBefore + 1 && queued() == 0);
		assertThat(this.received.messagesFor(eventKey).get(1).getMessageProperties().isRedelivered()).isTrue();
		assertThat(mailsSent()).singleElement().extracting(SentMail::idempotencyKey).isEqualTo(eventKey);
		assertThat(this.consumer.runs(eventKey)).isEqualTo(1);
	}

	@Test
	void crashBetweenTheCommitAndTheDeliveryMailsOnceAfterTheResubmissionAndTheRetryIsAReplay() {
		String key = UUID.randomUUID().toString();
		this.faults.failNextExternalization();

		HttpResponse<byte[]> first = run(key);
		assertThat(first.statusCode()).isEqualTo(200);
		String eventKey = eventKey(first);
		// The run committed its request and the publication; the externalization failed, so the publication
		// stays incomplete and nothing reached the queue.
		await().atMost(TIMEOUT).until(() -> "FAILED".equals(publicationStatus()));
		assertThat(this.received.messagesFor(eventKey)).isEmpty();
		assertThat(mailsSent()).isEmpty();

		HttpResponse<byte[]> retryBefore = run(key);
		assertThat(retryBefore.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(publications()).isEqualTo(1);

		this.incompletePublications.resubmitIncompletePublications(
				(publication) -> publication.getEvent() instanceof MailRequested event
						&& event.idempotencyKey().equals(eventKey));

		await().atMost(TIMEOUT).until(() -> mailsSent().size() == 1);
		await().atMost(TIMEOUT).until(() -> completedPublications() == 1);
		HttpResponse<byte[]> retryAfter = run(key);

		assertThat(retryAfter.statusCode()).isEqualTo(200);
		assertThat(retryAfter.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(retryAfter.body()).isEqualTo(first.body());
		assertThat(publications()).isEqualTo(1);
		assertThat(mailsSent()).singleElement().extracting(SentMail::idempotencyKey).isEqualTo(eventKey);
		assertThat(this.consumer.runs(eventKey)).isEqualTo(1);
	}

	/** The mail step's output: {@code queued_} and the event's derived key. */
	private static String eventKey(HttpResponse<byte[]> run) {
		String output = json(run).path("steps").get(0).path("output").asString();
		assertThat(output).startsWith("queued_");
		return output.substring("queued_".length());
	}

	private HttpResponse<byte[]> run(String key) {
		String body = "{\"task\":\"" + this.task + "\",\"report_to\":\"" + this.recipient + "\"}";
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/v1/agent/runs"))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer outbox")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
		try {
			return this.http.send(request, HttpResponse.BodyHandlers.ofByteArray());
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

	/** The publications of this test's events (one per event and listener: here the externalization). */
	private int publications() {
		return this.jdbc.queryForObject("SELECT count(*) FROM " + PUBLICATIONS + " WHERE serialized_event LIKE ?",
				Integer.class, "%" + this.recipient + "%");
	}

	private int publicationsCarrying(String eventKey) {
		return this.jdbc.queryForObject("SELECT count(*) FROM " + PUBLICATIONS + " WHERE serialized_event LIKE ?",
				Integer.class, "%\"idempotencyKey\":\"" + eventKey + "\"%");
	}

	private int completedPublications() {
		return this.jdbc.queryForObject("SELECT count(*) FROM " + PUBLICATIONS
				+ " WHERE serialized_event LIKE ? AND completion_date IS NOT NULL", Integer.class,
				"%" + this.recipient + "%");
	}

	private String publicationStatus() {
		return this.jdbc
			.queryForList("SELECT status FROM " + PUBLICATIONS + " WHERE serialized_event LIKE ?", String.class,
					"%" + this.recipient + "%")
			.stream()
			.findFirst()
			.orElse(null);
	}

	private long queued() {
		return this.admin.getQueueInfo(MailQueueConfiguration.QUEUE).getMessageCount();
	}

	/**
	 * The listeners' decisions with this outcome: a duplicate acknowledged without running counts as
	 * {@code replayed} (its record completed) or {@code result_unavailable} (applied in the consumer's
	 * transaction, which committed before the consumer failed).
	 */
	private double listenerDecisions(String outcome) {
		return this.meters.find(MicrometerIdempotencyListener.DECISIONS)
			.tags("method", "LISTENER", "outcome", outcome)
			.counters()
			.stream()
			.mapToDouble(Counter::count)
			.sum();
	}

	private static JsonNode json(HttpResponse<byte[]> response) {
		return JsonMapper.shared().readTree(response.body());
	}

	/** Every message the mail consumer's container received, before the listener's advice. */
	static class Received {

		private final List<Message> messages = new CopyOnWriteArrayList<>();

		List<Message> messagesFor(String key) {
			return this.messages.stream().filter((message) -> key.equals(header(message))).toList();
		}

		List<String> headersFor(String key) {
			return messagesFor(key).stream().map(Received::header).toList();
		}

		private static String header(Message message) {
			Object value = message.getMessageProperties().getHeader(IdempotentEventHeaders.IDEMPOTENCY_KEY);
			return (value != null) ? value.toString() : null;
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class ReceivedMessages {

		@Bean
		Received received() {
			return new Received();
		}

		@Bean
		ContainerCustomizer<SimpleMessageListenerContainer> recordReceived(Received received) {
			return (container) -> container.addAfterReceivePostProcessors((message) -> {
				received.messages.add(message);
				return message;
			});
		}

	}

}
