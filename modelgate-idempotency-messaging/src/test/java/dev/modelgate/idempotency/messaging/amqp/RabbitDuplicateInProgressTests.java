package dev.modelgate.idempotency.messaging.amqp;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

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
import org.springframework.amqp.rabbit.listener.RabbitListenerEndpointRegistry;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.messaging.handler.annotation.Header;

import dev.modelgate.idempotency.IdempotentListener;
import dev.modelgate.idempotency.core.IdempotencyInProgressException;
import dev.modelgate.idempotency.messaging.ListenerTestSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A duplicate delivered while the first copy still runs, on the set-up that dead-letters rejected
 * messages ({@code defaultRequeueRejected=false} and a dead-letter exchange): it is requeued, never
 * dead-lettered, and the application's error handler (which logs a stack trace) never hears of it;
 * a real failure still reaches that handler.
 */
@Tag("store")
class RabbitDuplicateInProgressTests {

	static final String PREFIX = "modelgate-in-progress-" + UUID.randomUUID() + "-";

	static final String QUEUE = PREFIX + "orders";

	static final String DEAD = PREFIX + "dead";

	private static AnnotationConfigApplicationContext context;

	private static RabbitAdmin admin;

	private static RabbitTemplate rabbit;

	@BeforeAll
	static void start() {
		CachingConnectionFactory connectionFactory = new RabbitTestConfiguration().connectionFactory();
		admin = new RabbitAdmin(connectionFactory);
		admin.declareQueue(QueueBuilder.nonDurable(DEAD).build());
		admin.declareQueue(QueueBuilder.nonDurable(QUEUE).deadLetterExchange("").deadLetterRoutingKey(DEAD).build());
		connectionFactory.destroy();
		context = new AnnotationConfigApplicationContext(ConsumerApplication.class);
		rabbit = new RabbitTemplate(context.getBean(CachingConnectionFactory.class));
	}

	@AfterAll
	static void stop() {
		context.getBean(RabbitListenerEndpointRegistry.class).stop();
		admin.deleteQueue(QUEUE);
		admin.deleteQueue(DEAD);
		context.close();
	}

	@Test
	void duplicateInProgressIsRequeuedNotDeadLetteredAndNeverReachesTheErrorHandler() {
		Orders orders = context.getBean(Orders.class);
		String key = UUID.randomUUID().toString();
		send(key);
		await().atMost(Duration.ofSeconds(30)).until(orders::hasStarted);
		send(key);
		// The other consumer finds the key in progress and requeues the copy, again and again.
		await().atMost(Duration.ofSeconds(30)).until(() -> orders.deliveries(key) >= 4);
		orders.release();

		await().atMost(Duration.ofSeconds(30)).until(() -> messages(QUEUE) == 0 && orders.deliveries(key) >= 5);
		assertThat(orders.runs(key)).isEqualTo(1);
		assertThat(messages(DEAD)).isZero();
		assertThat(context.getBean(ErrorHandlerCalls.class).failures)
			.noneSatisfy((failure) -> assertThat(failure).hasRootCauseInstanceOf(IdempotencyInProgressException.class));
	}

	@Test
	void listenerFailureStillReachesTheApplicationsErrorHandler() {
		String key = "fail-" + UUID.randomUUID();
		send(key);
		await().atMost(Duration.ofSeconds(30)).until(() -> messages(DEAD) == 1);
		assertThat(context.getBean(ErrorHandlerCalls.class).failures)
			.anySatisfy((failure) -> assertThat(failure).rootCause().hasMessage("refund failed for " + key));
		rabbit.receive(DEAD, 10_000);
	}

	private static void send(String key) {
		MessageProperties properties = new MessageProperties();
		properties.setHeader("Idempotency-Key", key);
		rabbit.send("", QUEUE, new Message(key.getBytes(), properties));
	}

	private static long messages(String queue) {
		return admin.getQueueInfo(queue).getMessageCount();
	}

	static class ErrorHandlerCalls {

		final List<Throwable> failures = new CopyOnWriteArrayList<>();

	}

	@Configuration(proxyBeanMethods = false)
	@EnableRabbit
	@Import(ListenerTestSupport.class)
	static class ConsumerApplication {

		@Bean
		CachingConnectionFactory connectionFactory() {
			return new RabbitTestConfiguration().connectionFactory();
		}

		@Bean
		ErrorHandlerCalls errorHandlerCalls() {
			return new ErrorHandlerCalls();
		}

		@Bean
		SimpleRabbitListenerContainerFactory rabbitListenerContainerFactory(CachingConnectionFactory connectionFactory,
				ErrorHandlerCalls calls, Orders orders) {
			SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
			factory.setConnectionFactory(connectionFactory);
			factory.setPrefetchCount(1);
			factory.setConcurrentConsumers(2);
			factory.setDefaultRequeueRejected(false);
			factory.setErrorHandler(calls.failures::add);
			factory.setAfterReceivePostProcessors((message) -> {
				orders.delivered(message.getMessageProperties().getHeader("Idempotency-Key"));
				return message;
			});
			return factory;
		}

		@Bean
		static RabbitListenerIdempotency rabbitListenerIdempotency() {
			return new RabbitListenerIdempotency(() -> Duration.ofMillis(100), () -> null);
		}

		@Bean
		Orders orders() {
			return new Orders();
		}

	}

	/**
	 * The listener; public, since its queue's name is read by an expression. Read through methods: the
	 * bean is a proxy.
	 */
	public static class Orders {

		final CountDownLatch started = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

		private final Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();

		public String queue() {
			return QUEUE;
		}

		@RabbitListener(queues = "#{@orders.queue()}")
		@IdempotentListener
		public void order(String order, @Header("Idempotency-Key") String key) throws InterruptedException {
			this.runs.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet();
			if (key.startsWith("fail-")) {
				throw new IllegalStateException("refund failed for " + key);
			}
			this.started.countDown();
			assertThat(this.release.await(30, TimeUnit.SECONDS)).isTrue();
		}

		public boolean hasStarted() {
			return this.started.getCount() == 0;
		}

		public void release() {
			this.release.countDown();
		}

		public void delivered(Object key) {
			this.deliveries.computeIfAbsent(String.valueOf(key), (k) -> new AtomicInteger()).incrementAndGet();
		}

		public int deliveries(String key) {
			AtomicInteger count = this.deliveries.get(key);
			return (count != null) ? count.get() : 0;
		}

		public int runs(String key) {
			AtomicInteger count = this.runs.get(key);
			return (count != null) ? count.get() : 0;
		}

	}

}
