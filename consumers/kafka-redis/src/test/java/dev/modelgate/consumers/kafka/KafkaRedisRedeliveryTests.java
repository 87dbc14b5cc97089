package dev.modelgate.consumers.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.listener.RecordInterceptor;
import org.springframework.kafka.test.context.EmbeddedKafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Proves that an application with the starter, Spring Kafka and Spring Data Redis starts, and that its
 * {@code @IdempotentListener} runs once for a record delivered twice with the same {@code Idempotency-Key} header,
 * whether the producer sent it twice or the consumer group read it again after its offset was rewound (as after a
 * consumer that died before committing it). On a Kafka broker in this JVM (KRaft) and the Redis at 127.0.0.1:6379.
 */
@Tag("boot")
@SpringBootTest(properties = { "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
		"consumer.topic=modelgate-consumer-charges" })
@EmbeddedKafka
class KafkaRedisRedeliveryTests {

	private static final String TOPIC = "modelgate-consumer-charges";

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	@Autowired
	private KafkaTemplate<String, String> kafka;

	@Autowired
	private KafkaAdmin kafkaAdmin;

	@Autowired
	private KafkaListenerEndpointRegistry listeners;

	@Autowired
	private Charges charges;

	@Autowired
	private Deliveries deliveries;

	@Autowired
	private StringRedisTemplate redis;

	@Value("${spring.data.redis.host}:${spring.data.redis.port}")
	private String redisAddress;

	/** The application starts without Redis (its client connects lazily): say so plainly rather than time out. */
	@BeforeEach
	void redisAnswers() {
		try {
			this.redis.execute((RedisCallback<String>) (connection) -> connection.ping());
		}
		catch (RuntimeException ex) {
			throw new AssertionError("Redis at " + this.redisAddress
					+ " does not answer; these tests need it (set REDIS_HOST and REDIS_PORT) and never skip", ex);
		}
	}

	@Test
	void recordSentTwiceRunsTheListenerOnce() throws Exception {
		String key = UUID.randomUUID().toString();
		send(key, "charge 5 credits");
		send(key, "charge 5 credits");
		String marker = UUID.randomUUID().toString();
		send(marker, "charge 7 credits");

		// One partition: the marker is handled after both deliveries of the key.
		await().atMost(TIMEOUT).until(() -> this.charges.runs(marker) == 1);
		assertThat(this.deliveries.of(key)).isEqualTo(2);
		assertThat(this.charges.runs(key)).isEqualTo(1);
	}

	@Test
	void recordReadAgainAfterTheOffsetWasRewoundIsSkipped() throws Exception {
		String key = UUID.randomUUID().toString();
		long offset = send(key, "charge 3 credits");
		await().atMost(TIMEOUT).until(() -> this.charges.runs(key) == 1);

		// The consumer group reads the record again, as after a consumer that died before committing its offset.
		MessageListenerContainer container = this.listeners.getListenerContainer(Charges.LISTENER_ID);
		container.stop();
		try (Admin admin = Admin.create(this.kafkaAdmin.getConfigurationProperties())) {
			admin.alterConsumerGroupOffsets(Charges.LISTENER_ID,
					Map.of(new TopicPartition(TOPIC, 0), new OffsetAndMetadata(offset)))
				.all()
				.get(30, TimeUnit.SECONDS);
		}
		container.start();
		String marker = UUID.randomUUID().toString();
		send(marker, "charge 4 credits");

		await().atMost(TIMEOUT).until(() -> this.charges.runs(marker) == 1);
		assertThat(this.deliveries.of(key)).as("deliveries of the rewound record").isEqualTo(2);
		assertThat(this.charges.runs(key)).isEqualTo(1);
	}

	private long send(String key, String payload) throws Exception {
		ProducerRecord<String, String> record = new ProducerRecord<>(TOPIC, payload);
		record.headers().add("Idempotency-Key", key.getBytes(StandardCharsets.UTF_8));
		return this.kafka.send(record).get(30, TimeUnit.SECONDS).getRecordMetadata().offset();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class DeliveryCounting {

		/** Spring Boot gives its listener container factory the {@code RecordInterceptor} bean. */
		@Bean
		Deliveries deliveries() {
			return new Deliveries();
		}

	}

	/** Counts each record the container hands to the listener's advice, by its key header. */
	static class Deliveries implements RecordInterceptor<Object, Object> {

		private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

		@Override
		public ConsumerRecord<Object, Object> intercept(ConsumerRecord<Object, Object> record,
				Consumer<Object, Object> consumer) {
			Header key = record.headers().lastHeader("Idempotency-Key");
			if (key != null) {
				this.counts.computeIfAbsent(new String(key.value(), StandardCharsets.UTF_8), (ignored) -> new AtomicInteger())
					.incrementAndGet();
			}
			return record;
		}

		int of(String key) {
			AtomicInteger count = this.counts.get(key);
			return (count != null) ? count.get() : 0;
		}

	}

}
