package dev.modelgate.idempotency.messaging.amqp;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.QueueBuilder;
import org.springframework.amqp.rabbit.annotation.EnableRabbit;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import dev.modelgate.idempotency.IdempotentListener;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.messaging.ListenerTestSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A consumer started again and again with a backlog in its queue, as an application restarts: four
 * consumer threads, rejected messages dead-lettered (the set-up the messaging guide recommends).
 * Every message must run once and none may be dead-lettered: the hook is in place before a container
 * can deliver its first message.
 */
@Tag("store")
class RabbitListenerRestartTests {

	static final String PREFIX = "modelgate-restart-" + UUID.randomUUID() + "-";

	static final String BACKLOG = PREFIX + "backlog";

	static final String DEAD = PREFIX + "dead";

	static final int STARTS = 20;

	static final int MESSAGES_PER_START = 16;

	/** Outlives each application context, as a Redis or JDBC store outlives a process. */
	static final IdempotencyStore STORE = new InMemoryIdempotencyStore();

	static final Map<String, AtomicInteger> RUNS = new ConcurrentHashMap<>();

	private static CachingConnectionFactory connectionFactory;

	private static RabbitAdmin admin;

	private static RabbitTemplate rabbit;

	@BeforeAll
	static void declareQueues() {
		connectionFactory = new RabbitTestConfiguration().connectionFactory();
		admin = new RabbitAdmin(connectionFactory);
		rabbit = new RabbitTemplate(connectionFactory);
		admin.declareQueue(QueueBuilder.nonDurable(DEAD).build());
		admin.declareQueue(QueueBuilder.nonDurable(BACKLOG).deadLetterExchange("").deadLetterRoutingKey(DEAD).build());
	}

	@AfterAll
	static void deleteQueues() {
		admin.deleteQueue(BACKLOG);
		admin.deleteQueue(DEAD);
		connectionFactory.destroy();
	}

	@Test
	void consumerRestartedWithABacklogRunsEveryMessageOnceAndDeadLettersNone() {
		for (int start = 0; start < STARTS; start++) {
			List<String> ids = IntStream.range(0, MESSAGES_PER_START).mapToObj((i) -> UUID.randomUUID().toString()).toList();
			for (String id : ids) {
				MessageProperties properties = new MessageProperties();
				properties.setMessageId(id);
				rabbit.send("", BACKLOG, new Message(("order " + id).getBytes(), properties));
			}
			try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(
					ConsumerApplication.class)) {
				await().atMost(Duration.ofSeconds(30))
					.until(() -> ids.stream().allMatch(RUNS::containsKey) || messages(DEAD) > 0);
				assertThat(messages(DEAD)).as("dead letters after start %d", start + 1).isZero();
			}
		}
		assertThat(RUNS).hasSize(STARTS * MESSAGES_PER_START);
		assertThat(RUNS.values()).allSatisfy((runs) -> assertThat(runs).hasValue(1));
		assertThat(messages(BACKLOG)).isZero();
		assertThat(messages(DEAD)).isZero();
	}

	private static long messages(String queue) {
		return admin.getQueueInfo(queue).getMessageCount();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableRabbit
	@Import(ListenerTestSupport.class)
	static class ConsumerApplication {

		@Bean
		IdempotencyStore idempotencyStore() {
			return STORE;
		}

		@Bean
		CachingConnectionFactory connectionFactory() {
			return new RabbitTestConfiguration().connectionFactory();
		}

		@Bean
		SimpleRabbitListenerContainerFactory rabbitListenerContainerFactory(CachingConnectionFactory connectionFactory) {
			SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
			factory.setConnectionFactory(connectionFactory);
			factory.setPrefetchCount(1);
			factory.setConcurrentConsumers(4);
			factory.setDefaultRequeueRejected(false);
			return factory;
		}

		@Bean
		static RabbitListenerIdempotency rabbitListenerIdempotency() {
			return new RabbitListenerIdempotency(() -> Duration.ofMillis(200), () -> null);
		}

		@Bean
		Orders orders() {
			return new Orders();
		}

	}

	/** The listener; public, since its queue's name is read by an expression. */
	public static class Orders {

		public String queue() {
			return BACKLOG;
		}

		@RabbitListener(queues = "#{@orders.queue()}")
		@IdempotentListener(messageId = true)
		public void order(String order) {
			RUNS.computeIfAbsent(order.substring("order ".length()), (id) -> new AtomicInteger()).incrementAndGet();
		}

	}

}
