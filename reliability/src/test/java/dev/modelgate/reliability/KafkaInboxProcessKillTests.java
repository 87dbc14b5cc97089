package dev.modelgate.reliability;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.KafkaTestUtils;

import dev.modelgate.reliability.support.KafkaConsumerApp;
import dev.modelgate.reliability.support.PostgresServer;
import dev.modelgate.reliability.support.Report;
import dev.modelgate.reliability.support.Sleep;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failure window of a Kafka listener: the consumer process is killed with {@code kill -9} after its listener's
 * database transaction committed and before the container committed the record's offset. The restarted consumer reads
 * the record again from the group's last committed offset, finds the key applied in that transaction (the
 * transactional inbox on PostgreSQL) and commits it without running: the booking row is written once. The consumer is
 * {@code consumers/kafka-postgresql}; the Kafka broker (KRaft, from spring-kafka-test) runs in the test's JVM, so it
 * outlives the consumer, and PostgreSQL is the suite's own.
 */
@Tag("process")
class KafkaInboxProcessKillTests {

	private static final String SCENARIO = "process-kill-kafka-inbox";

	private static final Duration TIMEOUT = Duration.ofSeconds(90);

	private static final String SKIPPED = "Duplicate message acknowledged without running "
			+ "dev.modelgate.consumers.kafkajdbc.Bookings.book";

	/**
	 * Short, since the killed consumer's lease holds the key: until it expires, the restarted consumer finds the key
	 * in progress and its error handler tries again every second.
	 */
	private static final String LEASE_TTL = "--modelgate.idempotency.lease-ttl=5s";

	/** So that the group drops the killed consumer after 6 s rather than the default 45 s. */
	private static final String SESSION_TIMEOUT = "--spring.kafka.consumer.properties.session.timeout.ms=6000";

	@Test
	void consumerKilledBetweenTheCommitAndTheOffsetCommitBooksTheRecordOnce() throws Exception {
		String topic = "modelgate-reliability-inbox-" + UUID.randomUUID();
		String key = UUID.randomUUID().toString();
		EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1, topic);
		broker.afterPropertiesSet();
		try (PostgresServer postgres = PostgresServer.start(SCENARIO)) {
			String brokers = broker.getBrokersAsString();
			try (KafkaConsumerApp victim = KafkaConsumerApp.start(SCENARIO, "consumer-killed", postgres, brokers, topic,
					LEASE_TTL, SESSION_TIMEOUT, "--consumer.hold-after-commit=true")) {
				publish(brokers, topic, key, "book room 9");
				// The listener's transaction committed (the row and the applied mark); its thread holds the offset commit.
				victim.process().awaitLog("Committed; holding the listener thread before the offset commit", TIMEOUT);
				assertThat(bookings(postgres, key)).isEqualTo(1);
				assertThat(committedOffset(broker, topic)).as("the group's committed offset before the kill").isZero();
				victim.kill();
			}

			long restarting = System.nanoTime();
			Duration acknowledged;
			try (KafkaConsumerApp restarted = KafkaConsumerApp.start(SCENARIO, "consumer-restarted", postgres, brokers,
					topic, LEASE_TTL, SESSION_TIMEOUT, "--logging.level.dev.modelgate.idempotency.messaging=DEBUG")) {
				// The redelivery acknowledged without running, or (were the inbox not there) booked a second time.
				await(() -> restarted.process().log().contains(SKIPPED) || bookings(postgres, key) > 1,
						"the redelivery handled");
				acknowledged = Duration.ofNanos(System.nanoTime() - restarting);
				assertThat(bookings(postgres, key)).as("bookings of the record after the redelivery").isEqualTo(1);
				await(() -> committedOffset(broker, topic) == 1, "the offset committed after the redelivery");
				restarted.stop();
			}
			int rows = bookings(postgres, key);
			Report.write(SCENARIO, """
					| | count |
					|---|---|
					| records published | 1 |
					| listener runs before the `kill -9` (committed, offset not committed) | 1 |
					| redeliveries acknowledged without running (applied in the killed consumer's transaction) | 1 |
					| booking rows | %d |

					From the restart's start to the acknowledgement: %d s (JVM start, then the group dropping the
					killed consumer after its 6 s session; a delivery while the killed consumer's lease, 5 s, still
					lived would find the key in progress and be tried again by the error handler every second).
					""".formatted(rows, acknowledged.toSeconds()));
			assertThat(rows).as("bookings of the record").isEqualTo(1);
		}
		finally {
			broker.destroy();
		}
	}

	private static void await(BooleanSupplier condition, String what) {
		long deadline = System.nanoTime() + TIMEOUT.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new AssertionError("No " + what + " within " + TIMEOUT);
			}
			Sleep.millis(100);
		}
	}

	private static void publish(String brokers, String topic, String key, String payload) throws Exception {
		Map<String, Object> props = KafkaTestUtils.producerProps(brokers);
		try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
				new StringSerializer())) {
			ProducerRecord<String, String> record = new ProducerRecord<>(topic, payload);
			record.headers().add("Idempotency-Key", key.getBytes(StandardCharsets.UTF_8));
			producer.send(record).get(30, TimeUnit.SECONDS);
		}
	}

	private static long committedOffset(EmbeddedKafkaKraftBroker broker, String topic) {
		OffsetAndMetadata offset = broker.doWithAdminFunction((admin) -> {
			try {
				return KafkaTestUtils.getCurrentOffset(admin, "bookings", topic, 0);
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
		return (offset != null) ? offset.offset() : 0;
	}

	private static int bookings(PostgresServer postgres, String key) {
		return Integer.parseInt(postgres.sql("SELECT count(*) FROM consumer_kafka_bookings WHERE message_key = '"
				+ key + "'"));
	}

}
