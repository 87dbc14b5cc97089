package dev.modelgate.consumers.rabbitmq;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.rabbit.config.ContainerCustomizer;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.amqp.rabbit.listener.RabbitListenerEndpointRegistry;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Proves that an application with the starter, Spring AMQP, Spring JDBC and the PostgreSQL driver starts, that its
 * {@code @Transactional @IdempotentListener} books a message delivered twice only once, and that a message redelivered
 * after the listener's transaction committed (the consumer failed before the ack) is acknowledged without booking
 * again: the row is written once. On the RabbitMQ at 127.0.0.1:5672 and the PostgreSQL at 127.0.0.1:5432.
 */
@Tag("boot")
@SpringBootTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RabbitmqPostgresqlRedeliveryTests {

	private static final String QUEUE = "modelgate-consumer-bookings-" + UUID.randomUUID();

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@Autowired
	private RabbitTemplate rabbit;

	@Autowired
	private AmqpAdmin admin;

	@Autowired
	private RabbitListenerEndpointRegistry listeners;

	@Autowired
	private JdbcTemplate jdbc;

	@Autowired
	private Bookings bookings;

	@Autowired
	private FailAfterCommit failAfterCommit;

	@DynamicPropertySource
	static void queue(DynamicPropertyRegistry registry) {
		registry.add("consumer.queue", () -> QUEUE);
	}

	@AfterAll
	void deleteQueue() {
		this.listeners.stop();
		this.admin.deleteQueue(QUEUE);
	}

	@Test
	void messageDeliveredTwiceIsBookedOnce() {
		String key = UUID.randomUUID().toString();
		send(key, "book room 1");
		send(key, "book room 1");
		String marker = UUID.randomUUID().toString();
		send(marker, "book room 2");

		// One consumer, one queue: the marker is handled after both deliveries of the key.
		await().atMost(TIMEOUT).until(() -> rows(marker) == 1);
		assertThat(rows(key)).isEqualTo(1);
		assertThat(this.bookings.runs(key)).isEqualTo(1);
		await().atMost(TIMEOUT).until(() -> messages() == 0);
	}

	@Test
	void messageRedeliveredAfterTheCommitIsAcknowledgedWithoutBookingAgain() {
		String key = UUID.randomUUID().toString();
		this.failAfterCommit.armed().set(true);
		send(key, "book room 3");

		// The listener's transaction commits, then the consumer fails before the ack: RabbitMQ requeues the
		// message, and its redelivery finds the key applied in that transaction.
		await().atMost(TIMEOUT).until(() -> this.failAfterCommit.failed().get() && messages() == 0);
		String marker = UUID.randomUUID().toString();
		send(marker, "book room 4");
		await().atMost(TIMEOUT).until(() -> rows(marker) == 1);
		assertThat(rows(key)).isEqualTo(1);
		assertThat(this.bookings.runs(key)).isEqualTo(1);
		assertThat(this.failAfterCommit.redelivered().get()).as("the broker delivered the message again").isTrue();
	}

	private void send(String key, String payload) {
		this.rabbit.convertAndSend("", QUEUE, payload, (message) -> {
			message.getMessageProperties().setHeader("Idempotency-Key", key);
			return message;
		});
	}

	private long messages() {
		return this.admin.getQueueInfo(QUEUE).getMessageCount();
	}

	private int rows(String key) {
		return this.jdbc.queryForObject("SELECT count(*) FROM consumer_rabbitmq_bookings WHERE message_key = ?",
				Integer.class, key);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class FailureConfiguration {

		/** Spring Boot adds every {@code TransactionExecutionListener} bean to its transaction manager. */
		@Bean
		FailAfterCommit failAfterCommit() {
			return new FailAfterCommit();
		}

		/** Sees each delivery before the listener's advice, so that the test knows the redelivery came. */
		@Bean
		ContainerCustomizer<SimpleMessageListenerContainer> redeliveries(FailAfterCommit failAfterCommit) {
			return (container) -> container.addAfterReceivePostProcessors((message) -> {
				if (message.getMessageProperties().isRedelivered()) {
					failAfterCommit.redelivered().set(true);
				}
				return message;
			});
		}

	}

	/** Fails the consumer once after its transaction committed, as a crash before the ack would. */
	static class FailAfterCommit implements TransactionExecutionListener {

		private final AtomicBoolean armed = new AtomicBoolean();

		private final AtomicBoolean failed = new AtomicBoolean();

		private final AtomicBoolean redelivered = new AtomicBoolean();

		@Override
		public void afterCommit(TransactionExecution transaction, Throwable commitFailure) {
			if (commitFailure == null && this.armed.getAndSet(false)) {
				this.failed.set(true);
				throw new IllegalStateException("consumer failed after the commit, before the ack");
			}
		}

		AtomicBoolean armed() {
			return this.armed;
		}

		AtomicBoolean failed() {
			return this.failed;
		}

		AtomicBoolean redelivered() {
			return this.redelivered;
		}

	}

}
