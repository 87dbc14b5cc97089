package dev.modelgate.idempotency.messaging.amqp;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.annotation.EnableRabbit;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.RabbitListenerEndpointRegistry;
import org.springframework.amqp.rabbit.retry.RepublishMessageRecoverer;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.messaging.handler.annotation.SendTo;

import dev.modelgate.idempotency.IdempotentListener;
import dev.modelgate.idempotency.core.IdempotencyDecision;
import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.core.IdempotencyOutcome;
import dev.modelgate.idempotency.messaging.ListenerRuns;
import dev.modelgate.idempotency.messaging.ListenerTestSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @IdempotentListener} on {@code @RabbitListener} methods, on the RabbitMQ server of this
 * machine ({@code RABBITMQ_HOST}, {@code RABBITMQ_PORT}, guest/guest), counting how often each
 * listener ran. Each run declares its own queues and deletes them.
 */
@Tag("store")
class IdempotentRabbitListenerTests {

	static final String PREFIX = "modelgate-test-" + UUID.randomUUID() + "-";

	private static AnnotationConfigApplicationContext context;

	private static RabbitTemplate rabbit;

	private static RabbitAdmin admin;

	private static ListenerRuns listeners;

	@BeforeAll
	static void start() {
		context = new AnnotationConfigApplicationContext(RabbitListenerApplication.class);
		rabbit = context.getBean(RabbitTemplate.class);
		admin = context.getBean(RabbitAdmin.class);
		listeners = context.getBean(ListenerRuns.class);
	}

	@AfterAll
	static void stop() {
		context.getBean(RabbitListenerEndpointRegistry.class).stop();
		context.getBean(RabbitTestConfiguration.TestQueues.class).delete(admin);
		context.close();
	}

	@Test
	void redeliveredMessageIsAcknowledgedWithoutRunningListener() throws Exception {
		String key = UUID.randomUUID().toString();
		send("orders", key, null, "order-1");
		send("orders", key, null, "order-1");
		String marker = UUID.randomUUID().toString();
		send("orders", marker, null, "order-2");

		assertThat(listeners.seen("orders", marker).await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(listeners.runs("orders", key)).isEqualTo(1);
		await().atMost(Duration.ofSeconds(10)).until(() -> messages("orders") == 0);
		assertThat(messages("dead")).isZero();
	}

	/**
	 * Section 13 on a listener: a redelivery after the outcome expired (ttl 300ms), within the
	 * spent-key retention (3s), is acknowledged without running; after the retention it runs again.
	 */
	@Test
	void redeliveryAfterTheOutcomeExpiredIsAcknowledgedWithoutRunningUntilTheRetentionEnds() throws Exception {
		String key = UUID.randomUUID().toString();
		SpentDecisions spent = context.getBean(SpentDecisions.class);
		int spentBefore = spent.count.get();
		send("spent", key, null, "order-1");
		assertThat(listeners.seen("spent", key).await(30, TimeUnit.SECONDS)).isTrue();
		// A copy at a time until one meets the spent key: before it, copies are replays of the outcome.
		await("a copy to meet the spent key").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> {
				if (messages("spent") == 0) {
					send("spent", key, null, "order-1");
				}
				return spent.count.get() > spentBefore;
			});
		await().atMost(Duration.ofSeconds(10)).until(() -> messages("spent") == 0);
		assertThat(listeners.runs("spent", key)).isEqualTo(1);
		assertThat(messages("dead")).isZero();
		await("the retention to end").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> {
				if (messages("spent") == 0) {
					send("spent", key, null, "order-1");
				}
				return listeners.runs("spent", key) == 2;
			});
		assertThat(messages("dead")).isZero();
	}

	@Test
	void messageIdIsTheKeyWhenTheListenerSaysSo() throws Exception {
		String id = UUID.randomUUID().toString();
		send("by-id", null, id, "ticket-1");
		send("by-id", null, id, "ticket-1");
		String marker = UUID.randomUUID().toString();
		send("by-id", null, marker, "ticket-2");

		assertThat(listeners.seen("by-id", marker).await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(listeners.runs("by-id", id)).isEqualTo(1);
	}

	@Test
	void replyIsSentAgainFromTheRecordWithoutRunningListener() {
		String key = UUID.randomUUID().toString();
		send("quotes", key, null, "quote-1");
		send("quotes", key, null, "quote-1");

		assertThat(List.of(receive("replies"), receive("replies")))
			.containsExactly("quoted quote-1, run 1", "quoted quote-1, run 1");
		assertThat(listeners.runs("quotes", key)).isEqualTo(1);
	}

	@Test
	void duplicateWhileTheFirstStillRunsIsRequeuedAndThenAcknowledgedWithoutRunning() throws Exception {
		String key = UUID.randomUUID().toString();
		send("shared", key, null, "share-1");
		assertThat(listeners.started().await(30, TimeUnit.SECONDS)).isTrue();
		send("shared", key, null, "share-1");
		// The other consumer finds the key in progress, waits, and requeues it: it comes back redelivered.
		await().atMost(Duration.ofSeconds(30)).until(() -> listeners.attempts("shared", key) >= 3);
		listeners.release().countDown();

		await().atMost(Duration.ofSeconds(30)).until(() -> messages("shared") == 0);
		assertThat(listeners.runs("shared", key)).isEqualTo(1);
		assertThat(messages("dead")).isZero();
	}

	@Test
	void thousandCopiesOnThreeConcurrentConsumersRunTheListenerOncePerKey() {
		List<String> keys = IntStream.range(0, 100).mapToObj((i) -> UUID.randomUUID().toString()).toList();
		for (String key : keys) {
			// The ten copies of a key one after the other: the three consumers take them at the same time.
			for (int copy = 0; copy < 10; copy++) {
				send("crowd", key, null, "charge " + key);
			}
		}

		await().atMost(Duration.ofSeconds(120)).until(() -> messages("crowd") == 0
				&& keys.stream().allMatch((key) -> listeners.attempts("crowd", key) >= 10));
		assertThat(keys).allSatisfy((key) -> assertThat(listeners.runs("crowd", key)).as("runs of %s", key).isEqualTo(1));
		assertThat(listeners.threads("crowd")).as("consumers whose listener ran").hasSize(3);
		assertThat(messages("dead")).isZero();
	}

	@Test
	void keyReusedWithAnotherPayloadIsDeadLetteredWithTheReason() {
		String key = UUID.randomUUID().toString();
		send("payments", key, null, "pay 10");
		send("payments", key, null, "pay 99");

		Message dead = rabbit.receive(PREFIX + "dead", 30_000);
		assertThat(dead).isNotNull();
		// Under load the two were once consumed in the opposite order of their sends (cause not found):
		// whichever comes first runs, the other is the key reused.
		String deadPayment = new String(dead.getBody());
		String ranPayment = deadPayment.equals("pay 10") ? "pay 99" : "pay 10";
		assertThat(deadPayment).isIn("pay 10", "pay 99");
		assertThat(dead.getMessageProperties().<String>getHeader(RepublishMessageRecoverer.X_EXCEPTION_MESSAGE))
			.contains("idempotency key");
		assertThat(listeners.runs("payments", key)).isEqualTo(1);
		assertThat(listeners.payloads()).contains(ranPayment).doesNotContain(deadPayment);
	}

	@Test
	void messageWithoutKeyIsDeadLetteredWithTheReason() {
		send("payments", null, null, "pay 5");

		Message dead = rabbit.receive(PREFIX + "dead", 30_000);
		assertThat(dead).isNotNull();
		assertThat(dead.getMessageProperties().<String>getHeader(RepublishMessageRecoverer.X_EXCEPTION_MESSAGE))
			.contains("no header 'Idempotency-Key'");
	}

	@Test
	void releasedFailureRunsListenerAgainOnRedeliveryAndThenNeverAgain() throws Exception {
		String key = UUID.randomUUID().toString();
		send("flaky", key, null, "flaky-1");
		await().atMost(Duration.ofSeconds(30)).until(() -> listeners.runs("flaky", key) == 2);
		await().atMost(Duration.ofSeconds(10)).until(() -> messages("flaky") == 0);

		send("flaky", key, null, "flaky-1");
		String marker = UUID.randomUUID().toString();
		send("flaky", marker, null, "flaky-2");
		assertThat(listeners.seen("flaky", marker).await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(listeners.runs("flaky", key)).isEqualTo(2);
	}

	private static void send(String queue, String key, String messageId, String payload) {
		MessageProperties properties = new MessageProperties();
		if (key != null) {
			properties.setHeader("Idempotency-Key", key);
		}
		properties.setMessageId(messageId);
		rabbit.send("", PREFIX + queue, new Message(payload.getBytes(), properties));
	}

	private static String receive(String queue) {
		Message message = rabbit.receive(PREFIX + queue, 30_000);
		assertThat(message).isNotNull();
		return new String(message.getBody());
	}

	private static long messages(String queue) {
		return admin.getQueueInfo(PREFIX + queue).getMessageCount();
	}

	/** Counts the spent-key decisions, so that a test knows when a copy met the spent key. */
	static class SpentDecisions implements IdempotencyListener {

		final AtomicInteger count = new AtomicInteger();

		@Override
		public void onDecision(IdempotencyDecision decision) {
			if (decision.outcome() == IdempotencyOutcome.SPENT) {
				this.count.incrementAndGet();
			}
		}

	}

	/** The queues of one run, named {@code PREFIX + name}. */
	public static class Queues {

		static final List<String> ALL = List.of("orders", "by-id", "quotes", "replies", "shared", "crowd", "payments",
				"flaky", "dead", "spent");

		public String name(String queue) {
			return PREFIX + queue;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableRabbit
	@Import({ ListenerTestSupport.class, RabbitTestConfiguration.class, ListenerRuns.class, Listeners.class })
	static class RabbitListenerApplication {

		@Bean
		RabbitTestConfiguration.TestQueues testQueues() {
			return new RabbitTestConfiguration.TestQueues(Queues.ALL.stream().map((name) -> PREFIX + name).toList());
		}

		@Bean
		Queues queues() {
			return new Queues();
		}

		@Bean
		SpentDecisions spentDecisions() {
			return new SpentDecisions();
		}

		@Bean
		SimpleRabbitListenerContainerFactory rabbitListenerContainerFactory(CachingConnectionFactory connectionFactory,
				RabbitAdmin admin, ListenerRuns listeners) {
			SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
			factory.setConnectionFactory(connectionFactory);
			factory.setPrefetchCount(1);
			// The application's own post-processor, which keeps running beside the idempotency one.
			factory.setAfterReceivePostProcessors((message) -> {
				listeners.attempted(message.getMessageProperties().getConsumerQueue().substring(PREFIX.length()),
						message.getMessageProperties().getHeader("Idempotency-Key"));
				return message;
			});
			return factory;
		}

		@Bean
		static RabbitListenerIdempotency rabbitListenerIdempotency(ObjectProvider<RabbitTemplate> rabbitTemplate) {
			return new RabbitListenerIdempotency(() -> Duration.ofMillis(200),
					() -> new RepublishMessageRecoverer(rabbitTemplate.getObject(), "", PREFIX + "dead"));
		}

	}

	/** The listeners; the tests read them through methods, since the bean is a proxy. */
	static class Listeners {

		private final ListenerRuns runs;

		Listeners(ListenerRuns runs) {
			this.runs = runs;
		}

		@RabbitListener(queues = "#{@queues.name('orders')}")
		@IdempotentListener
		public void order(String order, @Header("Idempotency-Key") String key) {
			this.runs.ran("orders", key, order);
		}

		@RabbitListener(queues = "#{@queues.name('spent')}")
		@IdempotentListener(ttl = "300ms", spentKeyRetention = "3s")
		public void spent(String order, @Header("Idempotency-Key") String key) {
			this.runs.ran("spent", key, order);
		}

		@RabbitListener(queues = "#{@queues.name('by-id')}")
		@IdempotentListener(messageId = true)
		public void ticket(String ticket, @Header("amqp_messageId") String id) {
			this.runs.ran("by-id", id, ticket);
		}

		@RabbitListener(queues = "#{@queues.name('quotes')}")
		@SendTo("#{@queues.name('replies')}")
		@IdempotentListener
		public String quote(String quote, @Header("Idempotency-Key") String key) {
			return "quoted " + quote + ", run " + this.runs.ran("quotes", key, quote);
		}

		@RabbitListener(queues = "#{@queues.name('shared')}", concurrency = "2")
		@IdempotentListener
		public void shared(String share, @Header("Idempotency-Key") String key) throws InterruptedException {
			this.runs.ran("shared", key, share);
			this.runs.started().countDown();
			this.runs.release().await(60, TimeUnit.SECONDS);
		}

		/** Three consumers of one queue, each on its own thread. */
		@RabbitListener(queues = "#{@queues.name('crowd')}", concurrency = "3")
		@IdempotentListener
		public void crowd(String charge, @Header("Idempotency-Key") String key) {
			this.runs.ran("crowd", key, charge);
		}

		@RabbitListener(queues = "#{@queues.name('payments')}")
		@IdempotentListener
		public void pay(String payment, @Header(name = "Idempotency-Key", required = false) String key) {
			this.runs.ran("payments", key, payment);
		}

		@RabbitListener(queues = "#{@queues.name('flaky')}")
		@IdempotentListener
		public void flaky(String payload, @Header("Idempotency-Key") String key) {
			if (this.runs.ran("flaky", key, payload) == 1) {
				throw new IllegalStateException("downstream unavailable");
			}
		}

	}

}
