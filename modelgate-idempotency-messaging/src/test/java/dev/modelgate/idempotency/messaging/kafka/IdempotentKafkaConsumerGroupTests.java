package dev.modelgate.idempotency.messaging.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
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
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.kafka.annotation.EnableKafka;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.ContainerTestUtils;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.util.backoff.FixedBackOff;

import dev.modelgate.idempotency.IdempotentListener;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.messaging.ListenerTestSupport;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;
import dev.modelgate.idempotency.testsupport.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Several consumers of one consumer group on a real Kafka broker (the KRaft broker of spring-kafka-test, in this
 * process), their records in the Redis at {@code REDIS_HOST}:{@code REDIS_PORT}: every copy of a message runs the
 * listener once in all, however many consumers get a copy, and a partition that moves to another consumer while the
 * listener still runs is not run twice. Counts how often the listener ran, per key.
 */
@Tag("store")
class IdempotentKafkaConsumerGroupTests {

	private static final String RUN = UUID.randomUUID().toString();

	private static final String CROWD = "crowd-" + RUN;

	private static final String MOVING = "moving-" + RUN;

	private static final int KEYS = 100;

	private static final int COPIES = 10;

	private static final int PARTITIONS = 3;

	private static EmbeddedKafkaKraftBroker broker;

	private static AnnotationConfigApplicationContext context;

	private static KafkaTemplate<String, String> kafka;

	private static Runs runs;

	@BeforeAll
	static void start() {
		broker = new EmbeddedKafkaKraftBroker(1, 1);
		broker.afterPropertiesSet();
		broker.addTopics(new NewTopic(CROWD, PARTITIONS, (short) 1), new NewTopic(MOVING, 1, (short) 1));
		System.setProperty("test.kafka.brokers", broker.getBrokersAsString());
		System.setProperty("test.kafka.crowd", CROWD);
		System.setProperty("test.kafka.moving", MOVING);
		context = new AnnotationConfigApplicationContext(ConsumerGroupApplication.class);
		kafka = context.getBean(KafkaTemplate.class);
		runs = context.getBean(Runs.class);
	}

	@AfterAll
	static void stop() {
		context.close();
		broker.destroy();
	}

	@Test
	void thousandCopiesAcrossPartitionsAndThreeConsumersRunTheListenerOncePerKey() {
		KafkaListenerEndpointRegistry registry = context.getBean(KafkaListenerEndpointRegistry.class);
		// Each of the three consumers owns one partition before anything is sent. Not ContainerTestUtils
		// .waitForAssignment: it stops at the first look that finds at least one, and fails when the first
		// consumer to join briefly holds all three before the group rebalances.
		await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
			for (String id : List.of("crowd-a", "crowd-b", "crowd-c")) {
				assertThat(registry.getListenerContainer(id).getAssignedPartitions()).as(id).hasSize(1);
			}
		});
		List<String> keys = IntStream.range(0, KEYS).mapToObj((i) -> RUN + "-key-" + i).toList();
		List<CompletableFuture<?>> sent = new ArrayList<>();
		for (int copy = 0; copy < COPIES; copy++) {
			for (int i = 0; i < KEYS; i++) {
				// The copies of one key go round the partitions, so that each consumer gets some of them.
				ProducerRecord<String, String> record = new ProducerRecord<>(CROWD, (i + copy) % PARTITIONS, null,
						"charge " + i);
				record.headers().add("Idempotency-Key", keys.get(i).getBytes(StandardCharsets.UTF_8));
				sent.add(kafka.send(record));
			}
		}
		CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).join();

		await().atMost(Duration.ofSeconds(120))
			.until(() -> IntStream.range(0, PARTITIONS).mapToLong((p) -> committedOffset("crowd-group", CROWD, p)).sum(),
					(committed) -> committed == KEYS * COPIES);
		assertThat(runs.deliveries(CROWD)).as("copies handed to the listeners").isGreaterThanOrEqualTo(KEYS * COPIES);
		assertThat(keys).allSatisfy((key) -> assertThat(runs.runs(key)).as("runs of %s", key).isEqualTo(1));
		assertThat(runs.total(CROWD)).isEqualTo(KEYS);
		assertThat(runs.consumersThatRan(CROWD)).as("consumers whose listener ran").hasSize(3);
	}

	@Test
	void partitionMovedWhileTheListenerRunsIsNotRunAgainAndIsAcknowledgedOnceTheFirstRunEnds() {
		KafkaListenerEndpointRegistry registry = context.getBean(KafkaListenerEndpointRegistry.class);
		MessageListenerContainer first = registry.getListenerContainer("moving-first");
		MessageListenerContainer second = registry.getListenerContainer("moving-second");
		first.start();
		ContainerTestUtils.waitForAssignment(first, 1);
		String key = RUN + "-moving";
		ProducerRecord<String, String> record = new ProducerRecord<>(MOVING, 0, null, "open ticket");
		record.headers().add("Idempotency-Key", key.getBytes(StandardCharsets.UTF_8));
		kafka.send(record).join();
		assertThat(waitFor(runs.blocking)).as("first consumer runs the listener").isTrue();

		// Another consumer joins the group; the first one, held in the listener past its max.poll.interval.ms,
		// leaves it, and the partition moves: the new owner reads the record again from the last commit.
		second.start();
		// Refused as in progress, then tried again by the error handler; or, were it not refused, run a second time.
		await().atMost(Duration.ofSeconds(60))
			.until(() -> runs.deliveriesTo("moving-second", key) >= 2 || runs.runs(key) > 1);
		assertThat(runs.runs(key)).as("runs while the first still runs").isEqualTo(1);
		assertThat(runs.finished.getCount()).as("the first run still runs").isOne();

		runs.unblock.countDown();
		await().atMost(Duration.ofSeconds(60)).until(() -> committedOffset("moving-group", MOVING, 0) == 1);
		assertThat(runs.runs(key)).isEqualTo(1);
		assertThat(runs.finished.getCount()).as("the first run ended").isZero();
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

	private static long committedOffset(String group, String topic, int partition) {
		var offset = broker.doWithAdminFunction((admin) -> {
			try {
				return KafkaTestUtils.getCurrentOffset(admin, group, topic, partition);
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
		return (offset != null) ? offset.offset() : 0;
	}

	/** How often the listeners ran, per key and per consumer, and how often a record reached a consumer. */
	static class Runs {

		private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

		private final Map<String, AtomicInteger> totals = new ConcurrentHashMap<>();

		private final Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();

		private final Map<String, Set<String>> consumers = new ConcurrentHashMap<>();

		final CountDownLatch blocking = new CountDownLatch(1);

		final CountDownLatch unblock = new CountDownLatch(1);

		final CountDownLatch finished = new CountDownLatch(1);

		void ran(String topic, String key) {
			this.runs.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet();
			this.totals.computeIfAbsent(topic, (k) -> new AtomicInteger()).incrementAndGet();
			this.consumers.computeIfAbsent(topic, (k) -> ConcurrentHashMap.newKeySet()).add(consumer());
		}

		/** Counted by the container factory's interceptor, before the listener's advice decides. */
		void delivered(String topic, String key) {
			this.deliveries.computeIfAbsent(topic, (k) -> new AtomicInteger()).incrementAndGet();
			this.deliveries.computeIfAbsent(consumer() + "/" + key, (k) -> new AtomicInteger()).incrementAndGet();
		}

		int runs(String key) {
			AtomicInteger count = this.runs.get(key);
			return (count != null) ? count.get() : 0;
		}

		int total(String topic) {
			AtomicInteger count = this.totals.get(topic);
			return (count != null) ? count.get() : 0;
		}

		int deliveries(String topic) {
			AtomicInteger count = this.deliveries.get(topic);
			return (count != null) ? count.get() : 0;
		}

		int deliveriesTo(String listenerId, String key) {
			AtomicInteger count = this.deliveries.get(listenerId + "/" + key);
			return (count != null) ? count.get() : 0;
		}

		Set<String> consumersThatRan(String topic) {
			return this.consumers.getOrDefault(topic, Set.of());
		}

		/** The listener id of this consumer thread: Spring Kafka names it {@code <id>-0-C-1}. */
		private static String consumer() {
			String thread = Thread.currentThread().getName();
			return thread.substring(0, thread.indexOf("-0-C-"));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableKafka
	@Import({ ListenerTestSupport.class, Listeners.class })
	static class ConsumerGroupApplication {

		@Bean
		Runs runs() {
			return new Runs();
		}

		@Bean(destroyMethod = "destroy")
		LettuceConnectionFactory redisConnectionFactory() {
			return RedisTestServer.connectionFactory();
		}

		@Bean
		IdempotencyStore idempotencyStore(LettuceConnectionFactory redis) {
			return new RedisIdempotencyStore(redis, "modelgate:test:consumer-group:");
		}

		@Bean
		KafkaTemplate<String, String> kafkaTemplate() {
			return new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(
					KafkaTestUtils.producerProps(System.getProperty("test.kafka.brokers")), new StringSerializer(),
					new StringSerializer()));
		}

		/** A duplicate in progress elsewhere is tried again every 50 ms, for up to a minute. */
		@Bean
		DefaultErrorHandler errorHandler() {
			return new DefaultErrorHandler(new FixedBackOff(50, 1200));
		}

		@Bean
		ConcurrentKafkaListenerContainerFactory<String, String> kafkaListenerContainerFactory(
				DefaultErrorHandler errorHandler, Runs runs) {
			Map<String, Object> props = KafkaTestClients.consumerProps(System.getProperty("test.kafka.brokers"), "unused");
			props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
			ConcurrentKafkaListenerContainerFactory<String, String> factory = new ConcurrentKafkaListenerContainerFactory<>();
			factory.setConsumerFactory(
					new DefaultKafkaConsumerFactory<>(props, new StringDeserializer(), new StringDeserializer()));
			factory.setCommonErrorHandler(errorHandler);
			factory.setRecordInterceptor((record, consumer) -> {
				org.apache.kafka.common.header.Header key = record.headers().lastHeader("Idempotency-Key");
				runs.delivered(record.topic(), new String(key.value(), StandardCharsets.UTF_8));
				return record;
			});
			return factory;
		}

		@Bean
		static KafkaListenerIdempotency kafkaListenerIdempotency() {
			return new KafkaListenerIdempotency();
		}

	}

	static class Listeners {

		private final Runs runs;

		Listeners(Runs runs) {
			this.runs = runs;
		}

		/** Three containers of one group, one consumer thread each: the group spreads the partitions over them. */
		@KafkaListener(id = "crowd-a", groupId = "crowd-group", topics = "${test.kafka.crowd}")
		@KafkaListener(id = "crowd-b", groupId = "crowd-group", topics = "${test.kafka.crowd}")
		@KafkaListener(id = "crowd-c", groupId = "crowd-group", topics = "${test.kafka.crowd}")
		@IdempotentListener
		public void charge(String payload, @Header("Idempotency-Key") String key) {
			this.runs.ran(CROWD, key);
		}

		/**
		 * Two consumers of one group, started by the test. The first run holds the listener until the test lets it
		 * go, longer than the consumer may go without polling (3 s), so the group moves its partition.
		 */
		@KafkaListener(id = "moving-first", groupId = "moving-group", topics = "${test.kafka.moving}",
				autoStartup = "false", properties = "max.poll.interval.ms=3000")
		@KafkaListener(id = "moving-second", groupId = "moving-group", topics = "${test.kafka.moving}",
				autoStartup = "false")
		@IdempotentListener
		public void open(String payload, @Header("Idempotency-Key") String key) throws InterruptedException {
			this.runs.ran(MOVING, key);
			this.runs.blocking.countDown();
			if (this.runs.unblock.await(90, TimeUnit.SECONDS)) {
				this.runs.finished.countDown();
			}
		}

	}

}
