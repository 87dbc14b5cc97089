package dev.modelgate.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
import dev.modelgate.reliability.support.RedisServer;
import dev.modelgate.reliability.support.Report;
import dev.modelgate.reliability.support.Sleep;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failure windows of a Kafka listener on Redis, where the record cannot complete in the listener's own
 * transaction: the consumer {@code consumers/kafka-redis} (its charge is an {@code INCR} in Redis, so it outlives the
 * process) is killed with {@code kill -9} either after its charge and before its record completed, or after the record
 * completed and before the offset commit, then restarted. docs/MESSAGING.md says what each window gives: the first
 * charges twice once the killed consumer's lease expires; the second is skipped. The Kafka broker runs in the test's
 * JVM, so it outlives the consumer; Redis is the suite's own.
 */
@Tag("process")
class KafkaRedisProcessKillTests {

	private static final String SCENARIO = "process-kill-kafka-redis";

	private static final Duration TIMEOUT = Duration.ofSeconds(90);

	private static final String LEASE_TTL = "--modelgate.idempotency.lease-ttl=5s";

	/** So that the group drops the killed consumer after 6 s rather than the default 45 s. */
	private static final String SESSION_TIMEOUT = "--spring.kafka.consumer.properties.session.timeout.ms=6000";

	private static final String SKIPPED = "Duplicate message acknowledged without running "
			+ "dev.modelgate.consumers.kafka.Charges.charge";

	@Test
	void killedAfterTheChargeAndBeforeTheRecordCompletedChargesAgainOnceTheLeaseExpires() throws Exception {
		String topic = "modelgate-reliability-redis-" + UUID.randomUUID();
		String key = UUID.randomUUID().toString();
		EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1, topic);
		broker.afterPropertiesSet();
		try (RedisServer redis = RedisServer.start(SCENARIO)) {
			String brokers = broker.getBrokersAsString();
			try (KafkaConsumerApp victim = KafkaConsumerApp.startOnRedis(SCENARIO, "charge-killed", redis, brokers,
					topic, LEASE_TTL, SESSION_TIMEOUT, "--consumer.hold-after-charge=true")) {
				publish(brokers, topic, key, "charge 5 credits");
				victim.process().awaitLog("Charged; holding the listener thread before the record completes", TIMEOUT);
				assertThat(charged(redis, key)).isEqualTo(1);
				victim.kill();
			}
			long restarting = System.nanoTime();
			try (KafkaConsumerApp restarted = KafkaConsumerApp.startOnRedis(SCENARIO, "charge-restarted", redis,
					brokers, topic, LEASE_TTL, SESSION_TIMEOUT)) {
				await(() -> charged(redis, key) >= 2, "a second charge");
				Duration again = Duration.ofNanos(System.nanoTime() - restarting);
				await(() -> committedOffset(broker, topic) == 1, "the offset committed after the second run");
				restarted.stop();
				int charges = charged(redis, key);
				Report.write(SCENARIO + "-before-complete", """
						| | count |
						|---|---|
						| records published | 1 |
						| charges before the `kill -9` (record in progress, offset not committed) | 1 |
						| charges after the restart, once the killed consumer's lease (5 s) expired | %d |
						| charges in all | %d |

						From the restart's start to the second charge: %d s. As docs/MESSAGING.md states: on a
						store without the listener's transaction, a crash between the effect and the record's
						completion runs the listener again after the lease.
						""".formatted(charges - 1, charges, again.toSeconds()));
				assertThat(charges).as("charges: the documented window, twice").isEqualTo(2);
			}
		}
		finally {
			broker.destroy();
		}
	}

	@Test
	void killedAfterTheRecordCompletedAndBeforeTheOffsetCommitIsAcknowledgedWithoutRunning() throws Exception {
		String topic = "modelgate-reliability-redis-" + UUID.randomUUID();
		String key = UUID.randomUUID().toString();
		EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1, topic);
		broker.afterPropertiesSet();
		try (RedisServer redis = RedisServer.start(SCENARIO)) {
			String brokers = broker.getBrokersAsString();
			try (KafkaConsumerApp victim = KafkaConsumerApp.startOnRedis(SCENARIO, "offset-killed", redis, brokers,
					topic, LEASE_TTL, SESSION_TIMEOUT, "--consumer.hold-after-record=true")) {
				publish(brokers, topic, key, "charge 7 credits");
				victim.process()
					.awaitLog("Record completed; holding the listener thread before the offset commit", TIMEOUT);
				assertThat(charged(redis, key)).isEqualTo(1);
				assertThat(committedOffset(broker, topic)).as("the group's committed offset before the kill").isZero();
				victim.kill();
			}
			try (KafkaConsumerApp restarted = KafkaConsumerApp.startOnRedis(SCENARIO, "offset-restarted", redis,
					brokers, topic, LEASE_TTL, SESSION_TIMEOUT,
					"--logging.level.dev.modelgate.idempotency.messaging=DEBUG")) {
				// The redelivery acknowledged without running, or (were the record not there) charged a second time.
				await(() -> restarted.process().log().contains(SKIPPED) || charged(redis, key) > 1,
						"the redelivery handled");
				assertThat(charged(redis, key)).as("charges after the redelivery").isEqualTo(1);
				await(() -> committedOffset(broker, topic) == 1, "the offset committed after the redelivery");
				restarted.stop();
			}
			Report.write(SCENARIO + "-after-complete", """
					| | count |
					|---|---|
					| records published | 1 |
					| charges before the `kill -9` (record completed, offset not committed) | 1 |
					| redeliveries acknowledged without running | 1 |
					| charges in all | %d |
					""".formatted(charged(redis, key)));
		}
		finally {
			broker.destroy();
		}
	}

	private static int charged(RedisServer redis, String key) {
		try {
			String value = redis.command("GET", "consumer:kafka:charged:" + key);
			return (value != null) ? Integer.parseInt(value) : 0;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
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
		try (KafkaProducer<String, String> producer = new KafkaProducer<>(KafkaTestUtils.producerProps(brokers),
				new StringSerializer(), new StringSerializer())) {
			ProducerRecord<String, String> record = new ProducerRecord<>(topic, payload);
			record.headers().add("Idempotency-Key", key.getBytes(StandardCharsets.UTF_8));
			producer.send(record).get(30, TimeUnit.SECONDS);
		}
	}

	private static long committedOffset(EmbeddedKafkaKraftBroker broker, String topic) {
		OffsetAndMetadata offset = broker.doWithAdminFunction((admin) -> {
			try {
				return KafkaTestUtils.getCurrentOffset(admin, "charges", topic, 0);
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
		return (offset != null) ? offset.offset() : 0;
	}

}
