package dev.modelgate.idempotency.messaging.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
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
import org.springframework.kafka.annotation.EnableKafka;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.util.backoff.FixedBackOff;

import dev.modelgate.idempotency.IdempotentListener;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.messaging.ListenerTestSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Kafka consumer started again and again with a backlog on its topic, as an application restarts:
 * three partitions, three consumer threads, failures dead-lettered at once. Every record must run
 * once and none may reach the dead-letter topic: the hook is on the container factory before any
 * container exists.
 */
@Tag("store")
class KafkaListenerRestartTests {

	static final int STARTS = 20;

	static final int RECORDS_PER_START = 12;

	/** Outlives each application context, as a Redis or JDBC store outlives a process. */
	static final IdempotencyStore STORE = new InMemoryIdempotencyStore();

	static final Map<String, AtomicInteger> RUNS = new ConcurrentHashMap<>();

	static final Map<String, AtomicInteger> DEAD = new ConcurrentHashMap<>();

	private static EmbeddedKafkaKraftBroker broker;

	private static KafkaTemplate<String, String> kafka;

	@BeforeAll
	static void startBroker() {
		broker = new EmbeddedKafkaKraftBroker(1, 1);
		broker.afterPropertiesSet();
		broker.addTopics(new NewTopic("restart-orders", 3, (short) 1), new NewTopic("restart-orders-dlt", 1, (short) 1));
		System.setProperty("test.kafka.restart.brokers", broker.getBrokersAsString());
		kafka = new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(KafkaTestUtils.producerProps(broker.getBrokersAsString()),
				new StringSerializer(), new StringSerializer()));
	}

	@AfterAll
	static void stopBroker() {
		kafka.destroy();
		broker.destroy();
	}

	@Test
	void consumerRestartedWithABacklogRunsEveryRecordOnceAndDeadLettersNone() throws Exception {
		for (int start = 0; start < STARTS; start++) {
			List<String> keys = IntStream.range(0, RECORDS_PER_START).mapToObj((i) -> UUID.randomUUID().toString()).toList();
			for (String key : keys) {
				ProducerRecord<String, String> record = new ProducerRecord<>("restart-orders", key, "order " + key);
				record.headers().add("Idempotency-Key", key.getBytes(StandardCharsets.UTF_8));
				kafka.send(record).get(30, TimeUnit.SECONDS);
			}
			try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(
					ConsumerApplication.class)) {
				await().atMost(Duration.ofSeconds(60)).until(() -> keys.stream().allMatch(RUNS::containsKey) || !DEAD.isEmpty());
				assertThat(DEAD).as("dead letters after start %d", start + 1).isEmpty();
			}
		}
		assertThat(RUNS).hasSize(STARTS * RECORDS_PER_START);
		assertThat(RUNS.values()).allSatisfy((runs) -> assertThat(runs).hasValue(1));
		assertThat(DEAD).isEmpty();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableKafka
	@Import(ListenerTestSupport.class)
	static class ConsumerApplication {

		@Bean
		IdempotencyStore idempotencyStore() {
			return STORE;
		}

		@Bean
		KafkaTemplate<String, String> kafkaTemplate() {
			return new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(
					KafkaTestUtils.producerProps(System.getProperty("test.kafka.restart.brokers")), new StringSerializer(),
					new StringSerializer()));
		}

		/** Every failure dead-lettered at once: a delivery without the hook would land there. */
		@Bean
		DefaultErrorHandler errorHandler(KafkaTemplate<String, String> kafkaTemplate) {
			return new DefaultErrorHandler(new DeadLetterPublishingRecoverer(kafkaTemplate, (record, ex) -> {
				DEAD.computeIfAbsent(String.valueOf(record.key()), (key) -> new AtomicInteger()).incrementAndGet();
				return new org.apache.kafka.common.TopicPartition("restart-orders-dlt", 0);
			}), new FixedBackOff(0, 0));
		}

		@Bean
		ConcurrentKafkaListenerContainerFactory<String, String> kafkaListenerContainerFactory(
				DefaultErrorHandler errorHandler) {
			Map<String, Object> props = KafkaTestClients.consumerProps(System.getProperty("test.kafka.restart.brokers"),
					"unused");
			props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
			ConcurrentKafkaListenerContainerFactory<String, String> factory = new ConcurrentKafkaListenerContainerFactory<>();
			factory.setConsumerFactory(
					new DefaultKafkaConsumerFactory<>(props, new StringDeserializer(), new StringDeserializer()));
			factory.setCommonErrorHandler(errorHandler);
			factory.setConcurrency(3);
			return factory;
		}

		@Bean
		static KafkaListenerIdempotency kafkaListenerIdempotency() {
			return new KafkaListenerIdempotency();
		}

		@Bean
		Orders orders() {
			return new Orders();
		}

	}

	static class Orders {

		@KafkaListener(topics = "restart-orders", groupId = "restart-orders-group")
		@IdempotentListener
		public void order(String order, @Header("Idempotency-Key") String key) {
			RUNS.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet();
		}

	}

}
