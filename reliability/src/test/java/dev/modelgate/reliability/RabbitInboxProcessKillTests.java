package dev.modelgate.reliability;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.modelgate.reliability.support.PostgresServer;
import dev.modelgate.reliability.support.Rabbit;
import dev.modelgate.reliability.support.RabbitConsumerApp;
import dev.modelgate.reliability.support.Report;
import dev.modelgate.reliability.support.Sleep;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failure window of a message listener: the consumer process is killed with {@code kill -9} after its listener's
 * database transaction committed and before it acknowledged the message. RabbitMQ delivers the message again to the
 * restarted consumer, which finds the key applied in that transaction (the transactional inbox on PostgreSQL) and
 * acknowledges it without running: the booking row is written once. The consumer is
 * {@code consumers/rabbitmq-postgresql}, on the RabbitMQ server of this machine and a PostgreSQL of the suite's own.
 */
@Tag("process")
class RabbitInboxProcessKillTests {

	private static final String SCENARIO = "process-kill-rabbitmq-inbox";

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	/**
	 * Short, since the killed consumer's lease holds the key: until it expires, the restarted consumer finds the key
	 * in progress and requeues the message after {@code listener-requeue-delay} (1 s).
	 */
	private static final String LEASE_TTL = "--modelgate.idempotency.lease-ttl=5s";

	@Test
	void consumerKilledBetweenTheCommitAndTheAckBooksTheMessageOnce() {
		String queue = "modelgate-reliability-inbox-" + UUID.randomUUID();
		String key = UUID.randomUUID().toString();
		try (PostgresServer postgres = PostgresServer.start(SCENARIO); Rabbit rabbit = Rabbit.connect()) {
			try {
				try (RabbitConsumerApp victim = RabbitConsumerApp.start(SCENARIO, "consumer-killed", postgres, queue,
						LEASE_TTL, "--consumer.hold-after-commit=true")) {
					rabbit.publish(queue, key, "book room 9");
					// The listener's transaction committed (the row and the applied mark), and its thread holds the ack.
					victim.process().awaitLog("Committed; holding the listener thread before the ack", TIMEOUT);
					assertThat(bookings(postgres, key)).isEqualTo(1);
					assertThat(rabbit.ready(queue)).as("the message is delivered and not acknowledged").isZero();
					victim.kill();
				}
				// The broker gives the unacknowledged message back to the queue when the dead consumer's connection drops.
				await(() -> rabbit.ready(queue) == 1, "the message back in the queue after the kill");

				long restarting = System.nanoTime();
				int requeued;
				Duration acknowledged;
				try (RabbitConsumerApp restarted = RabbitConsumerApp.start(SCENARIO, "consumer-restarted", postgres,
						queue, LEASE_TTL, "--logging.level.dev.modelgate.idempotency.messaging=DEBUG")) {
					restarted.process()
						.awaitLog("Duplicate message acknowledged without running dev.modelgate.consumers.rabbitmq.Bookings.book",
								TIMEOUT);
					acknowledged = Duration.ofNanos(System.nanoTime() - restarting);
					String log = restarted.process().log();
					assertThat(log).contains("key sha256=" + sha256(key)).doesNotContain(key);
					// Each delivery while the killed consumer's lease lived: the key in progress, requeued after a delay.
					requeued = (int) log.lines().filter((line) -> line.contains("listener failed")).count();
					// A graceful stop requeues what is not acknowledged: nothing comes back, so the redelivery was acked.
					restarted.stop();
				}
				assertThat(rabbit.ready(queue)).as("messages left after the restarted consumer stopped").isZero();
				int rows = bookings(postgres, key);
				Report.write(SCENARIO, """
						| | count |
						|---|---|
						| messages published | 1 |
						| listener runs before the `kill -9` (committed, not acknowledged) | 1 |
						| deliveries to the restarted consumer while the killed one's lease (5 s) lived: requeued | %d |
						| deliveries acknowledged without running (applied in the killed consumer's transaction) | 1 |
						| booking rows | %d |

						From the restart's start to the acknowledgement: %d s (JVM start, then the lease's end).
						""".formatted(requeued, rows, acknowledged.toSeconds()));
				assertThat(rows).as("bookings of the message").isEqualTo(1);
			}
			finally {
				rabbit.deleteQueue(queue);
			}
		}
	}

	private static int bookings(PostgresServer postgres, String key) {
		return Integer.parseInt(postgres.sql("SELECT count(*) FROM consumer_rabbitmq_bookings WHERE message_key = '"
				+ key + "'"));
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

	private static String sha256(String key) {
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
