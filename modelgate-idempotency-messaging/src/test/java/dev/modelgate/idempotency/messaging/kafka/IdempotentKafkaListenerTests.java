package dev.modelgate.idempotency.messaging.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.annotation.EnableKafka;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.annotation.TopicPartition;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.messaging.handler.annotation.SendTo;
import org.springframework.util.backoff.FixedBackOff;

import dev.modelgate.idempotency.IdempotentListener;
import dev.modelgate.idempotency.messaging.ListenerRuns;
import dev.modelgate.idempotency.messaging.ListenerTestSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @IdempotentListener} on {@code @KafkaListener} methods, on a real Kafka broker (the KRaft
 * broker spring-kafka-test runs in this process), counting how often each listener ran.
 */
@Tag("store")
class IdempotentKafkaListenerTests {

	private static EmbeddedKafkaKraftBroker broker;

	private static AnnotationConfigApplicationContext context;

	private static KafkaTemplate<String, String> kafka;

	private static ListenerRuns listeners;

	@BeforeAll
	static void start() {
		broker = new EmbeddedKafkaKraftBroker(1, 1);
		broker.afterPropertiesSet();
		broker.addTopics(new NewTopic("orders", 1, (short) 1), new NewTopic("quotes", 1, (short) 1),
				new NewTopic("quotes.replies", 1, (short) 1), new NewTopic("shared", 2, (short) 1),
				new NewTopic("payments", 1, (short) 1), new NewTopic("payments-dlt", 1, (short) 1),
				new NewTopic("flaky", 1, (short) 1), new NewTopic("final", 1, (short) 1),
				new NewTopic("final-dlt", 1, (short) 1), new NewTopic("keyed", 1, (short) 1));
		System.setProperty("test.kafka.brokers", broker.getBrokersAsString());
		context = new AnnotationConfigApplicationContext(KafkaListenerApplication.class);
		kafka = context.getBean(KafkaTemplate.class);
		listeners = context.getBean(ListenerRuns.class);
	}

	@AfterAll
	static void stop() {
		context.close();
		broker.destroy();
	}

	@Test
	void redeliveredMessageIsAcknowledgedWithoutRunningListener() throws Exception {
		String key = UUID.randomUUID().toString();
		send("orders", key, "order-1");
		send("orders", key, "order-1");
		String marker = UUID.randomUUID().toString();
		send("orders", marker, "order-2");

		assertThat(listeners.seen("orders", marker).await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(listeners.runs("orders", key)).isEqualTo(1);
		// The container commits after the listener returned: the marker seen, its commit may still come.
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(committedOffset("orders-group", "orders", 0)).isEqualTo(3));
	}

	@Test
	void keyExpressionReadsTheRecord() throws Exception {
		String key = UUID.randomUUID().toString();
		kafka.send("keyed", key, "event-1").get(30, TimeUnit.SECONDS);
		kafka.send("keyed", key, "event-1").get(30, TimeUnit.SECONDS);
		String marker = UUID.randomUUID().toString();
		kafka.send("keyed", marker, "event-2").get(30, TimeUnit.SECONDS);

		assertThat(listeners.seen("keyed", marker).await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(listeners.runs("keyed", key)).isEqualTo(1);
	}

	@Test
	void replyIsSentAgainFromTheRecordWithoutRunningListener() {
		String key = UUID.randomUUID().toString();
		send("quotes", key, "quote-1");
		send("quotes", key, "quote-1");

		List<String> replies = new ArrayList<>();
		try (var consumer = new DefaultKafkaConsumerFactory<>(KafkaTestClients.consumerProps(broker.getBrokersAsString(), "replies"),
				new StringDeserializer(), new StringDeserializer())
			.createConsumer()) {
			consumer.assign(List.of(new org.apache.kafka.common.TopicPartition("quotes.replies", 0)));
			consumer.seekToBeginning(List.of(new org.apache.kafka.common.TopicPartition("quotes.replies", 0)));
			await().atMost(Duration.ofSeconds(30)).until(() -> {
				consumer.poll(Duration.ofMillis(200)).forEach((record) -> replies.add(record.value()));
				return replies.size() >= 2;
			});
		}
		assertThat(replies).containsExactly("quoted quote-1, run 1", "quoted quote-1, run 1");
		assertThat(listeners.runs("quotes", key)).isEqualTo(1);
	}

	@Test
	void duplicatesOnTwoPartitionsRunListenerOnceWhileTheFirstStillRuns() throws Exception {
		String key = UUID.randomUUID().toString();
		kafka.send(record("shared", 0, key, "share-1")).get();
		assertThat(listeners.started().await(30, TimeUnit.SECONDS)).isTrue();
		kafka.send(record("shared", 1, key, "share-1")).get();
		// The second consumer finds the key in progress: its error handler retries it with its back-off.
		await().atMost(Duration.ofSeconds(30)).until(() -> listeners.attempts("shared", key) >= 2);
		listeners.release().countDown();

		await().atMost(Duration.ofSeconds(30))
			.until(() -> committedOffset("shared-group", "shared", 0) == 1
					&& committedOffset("shared-group", "shared", 1) == 1);
		assertThat(listeners.runs("shared", key)).isEqualTo(1);
	}

	@Test
	void keyReusedWithAnotherPayloadIsDeadLetteredWithTheReason() {
		String key = UUID.randomUUID().toString();
		send("payments", key, "pay 10");
		send("payments", key, "pay 99");

		ConsumerRecord<String, String> dead = deadLetter("payments-dlt");
		assertThat(dead.value()).isEqualTo("pay 99");
		assertThat(header(dead, KafkaHeaders.DLT_EXCEPTION_MESSAGE)).contains("idempotency key");
		assertThat(header(dead, KafkaHeaders.DLT_EXCEPTION_CAUSE_FQCN))
			.isEqualTo("dev.modelgate.idempotency.core.IdempotencyKeyReusedException");
		assertThat(listeners.runs("payments", key)).isEqualTo(1);
		assertThat(listeners.payloads()).doesNotContain("pay 99");
	}

	@Test
	void releasedFailureRunsListenerAgainOnRedeliveryAndThenNeverAgain() throws Exception {
		String key = UUID.randomUUID().toString();
		send("flaky", key, "flaky-1");
		await().atMost(Duration.ofSeconds(30)).until(() -> committedOffset("flaky-group", "flaky", 0) == 1);
		assertThat(listeners.runs("flaky", key)).isEqualTo(2);

		send("flaky", key, "flaky-1");
		await().atMost(Duration.ofSeconds(30)).until(() -> committedOffset("flaky-group", "flaky", 0) == 2);
		assertThat(listeners.runs("flaky", key)).isEqualTo(2);
	}

	@Test
	void failureRecordedAsFinalIsDeadLetteredWithoutRunningAgain() {
		String key = UUID.randomUUID().toString();
		send("final", key, "final-1");

		ConsumerRecord<String, String> dead = deadLetter("final-dlt");
		assertThat(header(dead, KafkaHeaders.DLT_EXCEPTION_CAUSE_FQCN))
			.isEqualTo("dev.modelgate.idempotency.core.RecordedFailureException");
		assertThat(header(dead, KafkaHeaders.DLT_EXCEPTION_MESSAGE)).contains("card declined");
		assertThat(listeners.runs("final", key)).isEqualTo(1);
	}

	private static void send(String topic, String key, String payload) {
		try {
			kafka.send(record(topic, null, key, payload)).get(30, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static ProducerRecord<String, String> record(String topic, Integer partition, String key, String payload) {
		ProducerRecord<String, String> record = new ProducerRecord<>(topic, partition, null, payload);
		record.headers().add("Idempotency-Key", key.getBytes(StandardCharsets.UTF_8));
		return record;
	}

	private static ConsumerRecord<String, String> deadLetter(String topic) {
		try (var consumer = new DefaultKafkaConsumerFactory<>(
				KafkaTestClients.consumerProps(broker.getBrokersAsString(), "dlt-" + UUID.randomUUID()), new StringDeserializer(),
				new StringDeserializer())
			.createConsumer()) {
			consumer.subscribe(List.of(topic));
			return KafkaTestUtils.getSingleRecord(consumer, topic, Duration.ofSeconds(30));
		}
	}

	private static String header(ConsumerRecord<?, ?> record, String name) {
		org.apache.kafka.common.header.Header header = record.headers().lastHeader(name);
		return (header != null) ? new String(header.value(), StandardCharsets.UTF_8) : null;
	}

	private static long committedOffset(String group, String topic, int partition) throws Exception {
		var offset = broker.doWithAdminFunction(
				(admin) -> {
					try {
						return KafkaTestUtils.getCurrentOffset(admin, group, topic, partition);
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
				});
		return (offset != null) ? offset.offset() : -1;
	}

	@Configuration(proxyBeanMethods = false)
	@EnableKafka
	@Import({ ListenerTestSupport.class, ListenerRuns.class, Listeners.class })
	static class KafkaListenerApplication {

		private static Map<String, Object> consumerProps() {
			Map<String, Object> props = KafkaTestClients.consumerProps(System.getProperty("test.kafka.brokers"), "unused");
			props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
			props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
			return props;
		}

		@Bean
		KafkaTemplate<String, String> kafkaTemplate() {
			return new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(
					KafkaTestUtils.producerProps(System.getProperty("test.kafka.brokers")), new StringSerializer(),
					new StringSerializer()));
		}

		/** A dead-letter topic per source topic, and a back-off bounded to 40 tries 100 ms apart. */
		@Bean
		DefaultErrorHandler errorHandler(KafkaTemplate<String, String> kafkaTemplate) {
			return new DefaultErrorHandler(new DeadLetterPublishingRecoverer(kafkaTemplate,
					(record, ex) -> new org.apache.kafka.common.TopicPartition(record.topic() + "-dlt", 0)), new FixedBackOff(100, 40));
		}

		@Bean
		ConcurrentKafkaListenerContainerFactory<String, String> kafkaListenerContainerFactory(
				DefaultErrorHandler errorHandler, KafkaTemplate<String, String> kafkaTemplate, ListenerRuns listeners) {
			ConcurrentKafkaListenerContainerFactory<String, String> factory = new ConcurrentKafkaListenerContainerFactory<>();
			factory.setConsumerFactory(new DefaultKafkaConsumerFactory<>(consumerProps(), new StringDeserializer(),
					new StringDeserializer()));
			factory.setCommonErrorHandler(errorHandler);
			factory.setReplyTemplate(kafkaTemplate);
			// The application's own interceptor, which keeps running beside the idempotency one.
			factory.setRecordInterceptor((record, consumer) -> {
				listeners.attempted(record.topic(), header(record, "Idempotency-Key"));
				return record;
			});
			return factory;
		}

		@Bean
		static KafkaListenerIdempotency kafkaListenerIdempotency() {
			return new KafkaListenerIdempotency();
		}

	}

	/** The listeners; the tests read them through methods, since the bean is a proxy. */
	static class Listeners {

		private final ListenerRuns runs;

		Listeners(ListenerRuns runs) {
			this.runs = runs;
		}

		@KafkaListener(topics = "orders", groupId = "orders-group")
		@IdempotentListener
		public void order(String order, @Header("Idempotency-Key") String key) {
			this.runs.ran("orders", key, order);
		}

		@KafkaListener(topics = "keyed", groupId = "keyed-group")
		@IdempotentListener(key = "#message.key()")
		public void keyed(String event, @Header(KafkaHeaders.RECEIVED_KEY) String key) {
			this.runs.ran("keyed", key, event);
		}

		@KafkaListener(topics = "quotes", groupId = "quotes-group")
		@SendTo("quotes.replies")
		@IdempotentListener
		public String quote(String quote, @Header("Idempotency-Key") String key) {
			return "quoted " + quote + ", run " + this.runs.ran("quotes", key, quote);
		}

		/** Two containers, one per partition, in one group: two consumers on two threads. */
		@KafkaListener(id = "shared-0", groupId = "shared-group",
				topicPartitions = @TopicPartition(topic = "shared", partitions = "0"))
		@KafkaListener(id = "shared-1", groupId = "shared-group",
				topicPartitions = @TopicPartition(topic = "shared", partitions = "1"))
		@IdempotentListener
		public void shared(String share, @Header("Idempotency-Key") String key) throws InterruptedException {
			this.runs.ran("shared", key, share);
			this.runs.started().countDown();
			this.runs.release().await(60, TimeUnit.SECONDS);
		}

		@KafkaListener(topics = "payments", groupId = "payments-group")
		@IdempotentListener
		public void pay(String payment, @Header("Idempotency-Key") String key) {
			this.runs.ran("payments", key, payment);
		}

		@KafkaListener(topics = "flaky", groupId = "flaky-group")
		@IdempotentListener
		public void flaky(String payload, @Header("Idempotency-Key") String key) {
			if (this.runs.ran("flaky", key, payload) == 1) {
				throw new IllegalStateException("downstream unavailable");
			}
		}

		@KafkaListener(topics = "final", groupId = "final-group")
		@IdempotentListener(recordOn = IllegalArgumentException.class)
		public void card(String payload, @Header("Idempotency-Key") String key) {
			this.runs.ran("final", key, payload);
			throw new IllegalArgumentException("card declined");
		}

	}

}
