package dev.modelgate.idempotency.messaging.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
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
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import org.springframework.util.backoff.FixedBackOff;

import dev.modelgate.idempotency.IdempotentListener;
import dev.modelgate.idempotency.messaging.ListenerTestSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @IdempotentListener} on batch {@code @KafkaListener} methods, on a real Kafka broker (the KRaft broker of
 * spring-kafka-test, in this process): one key per record, completed duplicates left out of the lists the listener
 * gets, a record refused inside a batch handed to the container's error handler at its place. Counts how often the
 * listener ran with each key.
 */
@Tag("store")
class IdempotentKafkaBatchListenerTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static EmbeddedKafkaKraftBroker broker;

	private static AnnotationConfigApplicationContext context;

	private static KafkaTemplate<String, String> kafka;

	private static Batches batches;

	@BeforeAll
	static void start() {
		broker = new EmbeddedKafkaKraftBroker(1, 1);
		broker.afterPropertiesSet();
		broker.addTopics(new NewTopic("batch-orders", 1, (short) 1), new NewTopic("batch-flaky", 1, (short) 1),
				new NewTopic("batch-shared", 2, (short) 1), new NewTopic("batch-payments", 1, (short) 1),
				new NewTopic("batch-payments-dlt", 1, (short) 1));
		System.setProperty("test.kafka.brokers", broker.getBrokersAsString());
		context = new AnnotationConfigApplicationContext(BatchListenerApplication.class);
		kafka = context.getBean(KafkaTemplate.class);
		batches = context.getBean(Batches.class);
	}

	@AfterAll
	static void stop() {
		context.close();
		broker.destroy();
	}

	@Test
	void completedDuplicatesAreLeftOutOfTheBatchAndABatchOfDuplicatesOnlyDoesNotRunTheListener() {
		List<String> first = keys(5);
		first.forEach((key) -> send("batch-orders", null, key, "order " + key));
		await().atMost(TIMEOUT).until(() -> committedOffset("batch-orders", 0) == 5);
		int calls = batches.calls("batch-orders");

		// Every record again: a batch of duplicates only.
		first.forEach((key) -> send("batch-orders", null, key, "order " + key));
		await().atMost(TIMEOUT).until(() -> committedOffset("batch-orders", 0) == 10);
		assertThat(batches.calls("batch-orders")).as("listener calls for duplicates only").isEqualTo(calls);

		// Duplicates and new records mixed: the listener gets the new ones only.
		String fresh = UUID.randomUUID().toString();
		send("batch-orders", null, first.get(0), "order " + first.get(0));
		send("batch-orders", null, fresh, "order " + fresh);
		send("batch-orders", null, first.get(1), "order " + first.get(1));
		await().atMost(TIMEOUT).until(() -> committedOffset("batch-orders", 0) == 13);

		assertThat(first).allSatisfy((key) -> assertThat(batches.runs(key)).as("runs of %s", key).isEqualTo(1));
		assertThat(batches.runs(fresh)).isEqualTo(1);
		assertThat(batches.lists("batch-orders")).last().isEqualTo(List.of(fresh));
	}

	@Test
	void listenerFailureReleasesTheBatchAndTheRetryRunsItAgainThenNeverAgain() {
		List<String> keys = keys(3);
		keys.forEach((key) -> send("batch-flaky", null, key, "flaky " + key));
		await().atMost(TIMEOUT).until(() -> committedOffset("batch-flaky", 0) == 3);
		assertThat(keys).allSatisfy((key) -> assertThat(batches.runs(key)).as("runs of %s", key).isEqualTo(2));

		keys.forEach((key) -> send("batch-flaky", null, key, "flaky " + key));
		await().atMost(TIMEOUT).until(() -> committedOffset("batch-flaky", 0) == 6);
		assertThat(keys).allSatisfy((key) -> assertThat(batches.runs(key)).as("runs of %s", key).isEqualTo(2));
	}

	@Test
	void recordInProgressElsewhereStopsTheBatchThereAndIsAcknowledgedWithoutRunningOnceTheFirstRunEnds() {
		String held = UUID.randomUUID().toString();
		send("batch-shared", 0, held, "share " + held);
		assertThat(waitFor(batches.holding)).as("the first consumer runs with the key").isTrue();

		String before = UUID.randomUUID().toString();
		String after = UUID.randomUUID().toString();
		send("batch-shared", 1, before, "share " + before);
		send("batch-shared", 1, held, "share " + held);
		send("batch-shared", 1, after, "share " + after);
		// The second consumer runs the record before the held one, commits it, and retries from the held one.
		await().atMost(TIMEOUT).until(() -> committedOffset("batch-shared", 1) >= 1);
		assertThat(batches.runs(before)).isEqualTo(1);
		assertThat(batches.runs(after)).as("runs after the record in progress, before it ended").isZero();
		assertThat(batches.runs(held)).isEqualTo(1);

		batches.release.countDown();
		await().atMost(TIMEOUT).until(() -> committedOffset("batch-shared", 1) == 3);
		assertThat(batches.runs(held)).isEqualTo(1);
		assertThat(batches.runs(after)).isEqualTo(1);
	}

	@Test
	void keyReusedWithAnotherPayloadInsideABatchIsDeadLetteredAndTheOthersRun() {
		String key = UUID.randomUUID().toString();
		send("batch-payments", null, key, "pay 10");
		await().atMost(TIMEOUT).until(() -> committedOffset("batch-payments", 0) == 1);

		String before = UUID.randomUUID().toString();
		String after = UUID.randomUUID().toString();
		send("batch-payments", null, before, "pay 1");
		send("batch-payments", null, key, "pay 99");
		send("batch-payments", null, after, "pay 2");

		ConsumerRecord<String, String> dead = deadLetter("batch-payments-dlt");
		assertThat(dead.value()).isEqualTo("pay 99");
		// At once, not after the back-off: the refusal is not retryable. The dead letter says why.
		assertThat(new String(dead.headers().lastHeader(KafkaHeaders.DLT_EXCEPTION_MESSAGE).value(),
				StandardCharsets.UTF_8))
			.contains("idempotency key");
		assertThat(new String(dead.headers().lastHeader(KafkaHeaders.DLT_EXCEPTION_STACKTRACE).value(),
				StandardCharsets.UTF_8))
			.contains("dev.modelgate.idempotency.core.IdempotencyKeyReusedException");
		await().atMost(TIMEOUT).until(() -> committedOffset("batch-payments", 0) == 4);
		assertThat(batches.runs(key)).isEqualTo(1);
		assertThat(batches.runs(before)).isEqualTo(1);
		assertThat(batches.runs(after)).isEqualTo(1);
		assertThat(batches.payloads()).doesNotContain("pay 99");
	}

	private static List<String> keys(int count) {
		return IntStream.range(0, count).mapToObj((i) -> UUID.randomUUID().toString()).toList();
	}

	private static void send(String topic, Integer partition, String key, String payload) {
		ProducerRecord<String, String> record = new ProducerRecord<>(topic, partition, null, payload);
		record.headers().add("Idempotency-Key", key.getBytes(StandardCharsets.UTF_8));
		kafka.send(record).join();
	}

	private static boolean waitFor(CountDownLatch latch) {
		try {
			return latch.await(60, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private static ConsumerRecord<String, String> deadLetter(String topic) {
		try (var consumer = new DefaultKafkaConsumerFactory<>(
				KafkaTestClients.consumerProps(broker.getBrokersAsString(), "dlt-" + UUID.randomUUID()), new StringDeserializer(),
				new StringDeserializer())
			.createConsumer()) {
			consumer.subscribe(List.of(topic));
			return KafkaTestUtils.getSingleRecord(consumer, topic, TIMEOUT);
		}
	}

	private static long committedOffset(String topic, int partition) {
		var offset = broker.doWithAdminFunction((admin) -> {
			try {
				return KafkaTestUtils.getCurrentOffset(admin, topic + "-group", topic, partition);
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
		return (offset != null) ? offset.offset() : 0;
	}

	/** What the batch listeners got: the keys of each call's list, and how often each key was in one. */
	static class Batches {

		private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

		private final Map<String, List<List<String>>> lists = new ConcurrentHashMap<>();

		private final List<String> payloads = new CopyOnWriteArrayList<>();

		final CountDownLatch holding = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		List<String> ran(String topic, List<ConsumerRecord<String, String>> records) {
			List<String> keys = records.stream()
				.map((record) -> new String(record.headers().lastHeader("Idempotency-Key").value(),
						StandardCharsets.UTF_8))
				.toList();
			this.lists.computeIfAbsent(topic, (t) -> new CopyOnWriteArrayList<>()).add(keys);
			keys.forEach((key) -> this.runs.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet());
			records.forEach((record) -> this.payloads.add(record.value()));
			return keys;
		}

		int runs(String key) {
			AtomicInteger count = this.runs.get(key);
			return (count != null) ? count.get() : 0;
		}

		int calls(String topic) {
			return lists(topic).size();
		}

		List<List<String>> lists(String topic) {
			return this.lists.getOrDefault(topic, List.of());
		}

		List<String> payloads() {
			return this.payloads;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableKafka
	@Import({ ListenerTestSupport.class, Listeners.class })
	static class BatchListenerApplication {

		@Bean
		Batches batches() {
			return new Batches();
		}

		@Bean
		KafkaTemplate<String, String> kafkaTemplate() {
			return new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(
					KafkaTestUtils.producerProps(System.getProperty("test.kafka.brokers")), new StringSerializer(),
					new StringSerializer()));
		}

		/** A dead-letter topic per source topic, and a back-off of 100 ms, 300 tries. */
		@Bean
		DefaultErrorHandler errorHandler(KafkaTemplate<String, String> kafkaTemplate) {
			return new DefaultErrorHandler(new DeadLetterPublishingRecoverer(kafkaTemplate,
					(record, ex) -> new TopicPartition(record.topic() + "-dlt", 0)), new FixedBackOff(100, 300));
		}

		@Bean
		ConcurrentKafkaListenerContainerFactory<String, String> kafkaListenerContainerFactory(
				DefaultErrorHandler errorHandler) {
			Map<String, Object> props = KafkaTestClients.consumerProps(System.getProperty("test.kafka.brokers"), "unused");
			props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
			ConcurrentKafkaListenerContainerFactory<String, String> factory = new ConcurrentKafkaListenerContainerFactory<>();
			factory.setConsumerFactory(
					new DefaultKafkaConsumerFactory<>(props, new StringDeserializer(), new StringDeserializer()));
			factory.setCommonErrorHandler(errorHandler);
			factory.setBatchListener(true);
			return factory;
		}

		@Bean
		static KafkaListenerIdempotency kafkaListenerIdempotency() {
			return new KafkaListenerIdempotency();
		}

	}

	/** The listeners; the tests read them through {@link Batches}, since the bean is a proxy. */
	static class Listeners {

		private final Batches batches;

		private final Map<List<String>, Boolean> failed = new ConcurrentHashMap<>();

		Listeners(Batches batches) {
			this.batches = batches;
		}

		@KafkaListener(topics = "batch-orders", groupId = "batch-orders-group")
		@IdempotentListener
		public void order(List<ConsumerRecord<String, String>> records) {
			this.batches.ran("batch-orders", records);
		}

		/** Fails the first time it gets a list, and runs the retry of the same list. */
		@KafkaListener(topics = "batch-flaky", groupId = "batch-flaky-group")
		@IdempotentListener
		public void flaky(List<ConsumerRecord<String, String>> records) {
			List<String> keys = this.batches.ran("batch-flaky", records);
			if (this.failed.putIfAbsent(keys, true) == null) {
				throw new IllegalStateException("downstream unavailable");
			}
		}

		/** Two containers, one per partition, in one group; a batch with the held key waits for the test. */
		@KafkaListener(id = "batch-shared-0", groupId = "batch-shared-group",
				topicPartitions = @org.springframework.kafka.annotation.TopicPartition(topic = "batch-shared",
						partitions = "0"))
		@KafkaListener(id = "batch-shared-1", groupId = "batch-shared-group",
				topicPartitions = @org.springframework.kafka.annotation.TopicPartition(topic = "batch-shared",
						partitions = "1"))
		@IdempotentListener
		public void shared(List<ConsumerRecord<String, String>> records) throws InterruptedException {
			this.batches.ran("batch-shared", records);
			if (records.get(0).partition() == 0) {
				this.batches.holding.countDown();
				this.batches.release.await(60, TimeUnit.SECONDS);
			}
		}

		@KafkaListener(topics = "batch-payments", groupId = "batch-payments-group")
		@IdempotentListener
		public void pay(List<ConsumerRecord<String, String>> records) {
			this.batches.ran("batch-payments", records);
		}

	}

}
