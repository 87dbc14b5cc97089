package dev.modelgate.idempotency.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import dev.modelgate.idempotency.IdempotentListener;

/**
 * Messages per second through one {@code @Transactional} Kafka listener that writes a row per record to PostgreSQL,
 * without and with {@code @IdempotentListener} on the JDBC store (the transactional inbox: a begin, the applied mark
 * in the listener's transaction, the completion), in one run, on one broker (the KRaft broker of spring-kafka-test, in
 * this JVM) and the same database. Each variant reads its own topic of the same records, produced before it starts,
 * with its own consumer group, one after the other, in three rounds (plain, inbox; the first round warms the JIT up,
 * the others show the spread). The rate is counted from the first record the listener handles to the last, so the
 * group's join is not in it.
 *
 * <pre>
 * ./mvnw -B -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar dev.modelgate.idempotency.benchmarks.KafkaListenerThroughput [records]
 * </pre>
 *
 * The database is PGHOST, PGPORT, PGDATABASE and PGUSER (127.0.0.1, 5432, test, postgres).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(KafkaListenerThroughput.Listeners.class)
public class KafkaListenerThroughput {

	/** Three rounds of the pair, the first to warm the JIT up; each its own topic and consumer group. */
	private static final List<String> VARIANTS = List.of("plain-1", "inbox-1", "plain-2", "inbox-2", "plain-3",
			"inbox-3");

	public static void main(String[] args) throws Exception {
		int records = (args.length > 0) ? Integer.parseInt(args[0]) : 5000;
		String[] topics = VARIANTS.stream().map((variant) -> "bench-" + variant).toArray(String[]::new);
		EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1, topics);
		broker.afterPropertiesSet();
		try {
			for (String topic : topics) {
				produce(broker.getBrokersAsString(), topic, records);
			}
			try (ConfigurableApplicationContext context = new SpringApplicationBuilder(KafkaListenerThroughput.class)
				.web(WebApplicationType.NONE)
				.properties("spring.main.banner-mode=off", "logging.level.root=WARN",
						"spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
						"spring.kafka.consumer.auto-offset-reset=earliest",
						"spring.datasource.url=jdbc:postgresql://" + env("PGHOST", "127.0.0.1") + ":"
								+ env("PGPORT", "5432") + "/" + env("PGDATABASE", "test"),
						"spring.datasource.username=" + env("PGUSER", "postgres"), "modelgate.idempotency.store=jdbc",
						"modelgate.idempotency.jdbc.initialize-schema=always",
						"modelgate.idempotency.jdbc.table-name=modelgate_idempotency_kafka_bench")
				.run()) {
				JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
				jdbc.execute("DROP TABLE IF EXISTS kafka_bench_bookings");
				jdbc.execute("CREATE TABLE kafka_bench_bookings (id BIGSERIAL PRIMARY KEY, message_key VARCHAR(64) "
						+ "NOT NULL, payload TEXT NOT NULL)");
				jdbc.execute("TRUNCATE modelgate_idempotency_kafka_bench");
				Listeners listeners = context.getBean(Listeners.class);
				KafkaListenerEndpointRegistry registry = context.getBean(KafkaListenerEndpointRegistry.class);
				System.out.printf(Locale.ROOT, "%d records per variant, one partition, one consumer%n", records);
				for (String variant : VARIANTS) {
					MessageListenerContainer container = registry.getListenerContainer(variant);
					container.start();
					long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
					while (listeners.count(variant) < records && System.nanoTime() < deadline) {
						TimeUnit.MILLISECONDS.sleep(20);
					}
					container.stop();
					double seconds = listeners.elapsedNanos(variant) / 1e9;
					System.out.printf(Locale.ROOT, "%-12s %6d records in %6.2f s: %8.0f messages/s%n", variant,
							listeners.count(variant), seconds, (listeners.count(variant) - 1) / seconds);
				}
				System.out.printf(Locale.ROOT, "rows written: %d (expected %d)%n",
						jdbc.queryForObject("SELECT count(*) FROM kafka_bench_bookings", Long.class),
						records * VARIANTS.size());
			}
		}
		finally {
			broker.destroy();
		}
	}

	private static void produce(String brokers, String topic, int records) {
		Map<String, Object> props = KafkaTestUtils.producerProps(brokers);
		props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
		try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
				new StringSerializer())) {
			String payload = "{\"order\":\"" + "x".repeat(80) + "\"}";
			for (int i = 0; i < records; i++) {
				ProducerRecord<String, String> record = new ProducerRecord<>(topic, payload);
				record.headers().add("Idempotency-Key", UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8));
				producer.send(record);
			}
			producer.flush();
		}
	}

	private static String env(String name, String fallback) {
		String value = System.getenv(name);
		return (value != null) ? value : fallback;
	}

	/** The same work; only the second method has {@code @IdempotentListener}. */
	@Component
	public static class Listeners {

		private final JdbcTemplate jdbc;

		private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

		private final Map<String, AtomicLong> first = new ConcurrentHashMap<>();

		private final Map<String, AtomicLong> last = new ConcurrentHashMap<>();

		public Listeners(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@KafkaListener(id = "plain-1", topics = "bench-plain-1", autoStartup = "false")
		@KafkaListener(id = "plain-2", topics = "bench-plain-2", autoStartup = "false")
		@KafkaListener(id = "plain-3", topics = "bench-plain-3", autoStartup = "false")
		@Transactional
		public void plain(String payload, @Header("Idempotency-Key") String key,
				@Header(KafkaHeaders.RECEIVED_TOPIC) String topic) {
			book(topic, key, payload);
		}

		@KafkaListener(id = "inbox-1", topics = "bench-inbox-1", autoStartup = "false")
		@KafkaListener(id = "inbox-2", topics = "bench-inbox-2", autoStartup = "false")
		@KafkaListener(id = "inbox-3", topics = "bench-inbox-3", autoStartup = "false")
		@IdempotentListener
		@Transactional
		public void inbox(String payload, @Header("Idempotency-Key") String key,
				@Header(KafkaHeaders.RECEIVED_TOPIC) String topic) {
			book(topic, key, payload);
		}

		private void book(String topic, String key, String payload) {
			String variant = topic.substring("bench-".length());
			this.jdbc.update("INSERT INTO kafka_bench_bookings (message_key, payload) VALUES (?, ?)", key, payload);
			long now = System.nanoTime();
			this.first.computeIfAbsent(variant, (v) -> new AtomicLong(now));
			this.last.computeIfAbsent(variant, (v) -> new AtomicLong()).set(now);
			this.counts.computeIfAbsent(variant, (v) -> new AtomicInteger()).incrementAndGet();
		}

		int count(String variant) {
			AtomicInteger count = this.counts.get(variant);
			return (count != null) ? count.get() : 0;
		}

		long elapsedNanos(String variant) {
			return this.last.get(variant).get() - this.first.get(variant).get();
		}

	}

}
