package dev.modelgate.reliability;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.modelgate.reliability.support.OutboxConsumerApp;
import dev.modelgate.reliability.support.PostgresServer;
import dev.modelgate.reliability.support.RecordingMailApi;
import dev.modelgate.reliability.support.Report;
import dev.modelgate.reliability.support.Sleep;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The windows of the outbox, with {@code kill -9}: the consumer {@code consumers/outbox-postgresql} (a keyed signup
 * that publishes a welcome-mail event through Spring Modulith's JDBC registry, an {@code @IdempotentEventListener}
 * that calls a mail API with a derived {@code Idempotency-Key}) on a PostgreSQL of the suite's own, and the mail API
 * in this JVM, recording the keys it receives.
 */
@Tag("process")
class OutboxProcessKillTests {

	private static final String SCENARIO = "process-kill-outbox";

	private static final Duration TIMEOUT = Duration.ofSeconds(90);

	/** Short, since the killed listener's lease holds the event's key until it expires. */
	private static final String LEASE_TTL = "--modelgate.idempotency.lease-ttl=5s";

	@Test
	void killedAfterTheBusinessCommitAndBeforeDeliveryTheMailIsSentOnceAfterTheRestart() {
		String key = UUID.randomUUID().toString();
		String email = key + "@example.com";
		try (PostgresServer postgres = PostgresServer.start(SCENARIO); RecordingMailApi mailApi = RecordingMailApi.start()) {
			try (OutboxConsumerApp victim = OutboxConsumerApp.start(SCENARIO, "outbox-killed-before-delivery", postgres,
					mailApi, LEASE_TTL, "--consumer.hold-after-commit=true")) {
				victim.signUpAsync(key, email);
				victim.process().awaitLog("Signup committed; holding before its event is delivered", TIMEOUT);
				assertThat(signups(postgres, email)).isEqualTo(1);
				assertThat(publications(postgres, email, false)).as("the publication, stored with the signup").isEqualTo(1);
				assertThat(mailApi.keys()).as("mails before the kill").isEmpty();
				victim.kill();
			}
			long restarting = System.nanoTime();
			try (OutboxConsumerApp restarted = OutboxConsumerApp.start(SCENARIO, "outbox-restarted-republishing",
					postgres, mailApi, LEASE_TTL, "--spring.modulith.events.republish-outstanding-events-on-restart=true")) {
				restarted.process()
					.awaitCondition(() -> publications(postgres, email, true) == 1, "the publication completed", TIMEOUT);
				Duration delivered = Duration.ofNanos(System.nanoTime() - restarting);

				// The client's retry after its connection died with the first process: 409 while the killed request's
				// lease lives (a restart can be quicker than the lease), then, the signup committed and its response
				// never recorded, the key is spent without a result (410); nothing runs or is published.
				int inProgress = 0;
				HttpResponse<String> retry = restarted.signUp(key, email);
				while (retry.statusCode() == 409 && inProgress++ < 100) {
					assertThat(retry.body()).contains("idempotency_request_in_progress");
					Sleep.millis(100);
					retry = restarted.signUp(key, email);
				}
				// A signup that completes on the restarted process, and its retry: replayed, nothing published.
				String otherKey = UUID.randomUUID().toString();
				String otherEmail = otherKey + "@example.com";
				assertThat(restarted.signUp(otherKey, otherEmail).statusCode()).isEqualTo(200);
				HttpResponse<String> replay = restarted.signUp(otherKey, otherEmail);
				restarted.process()
					.awaitCondition(() -> publications(postgres, otherEmail, true) == 1, "the second publication completed",
							TIMEOUT);
				int publications = publications(postgres, email, null);
				int otherPublications = publications(postgres, otherEmail, null);
				int signups = signups(postgres, email);
				List<String> keys = mailApi.keys();
				int mails = mails(postgres);
				Report.write(SCENARIO + "-before-delivery", """
						| | count |
						|---|---|
						| signups written, publications stored (in one transaction, before the `kill -9`) | %d, %d |
						| mails before the `kill -9` | 0 |
						| mails after the restart (republished at start-up) | %d |
						| the client's retry of the killed signup | %d `%s` (after %d answers 409 while the killed request's lease lived), nothing run or published |
						| a second signup on the restarted process, then its retry | 200, then %d `Idempotent-Replayed: %s`; %d publication |
						| calls to the mail API in all (two signups) | %d, %d distinct keys |
						| mail rows in all | %d |

						From the restart's start to the first publication's completion: %d s.
						""".formatted(signups, publications, keys.isEmpty() ? 0 : 1, retry.statusCode(),
						retry.body().contains("idempotency_result_unavailable") ? "idempotency_result_unavailable" : retry.body(),
						inProgress,
						replay.statusCode(), replay.headers().firstValue("Idempotent-Replayed").orElse("absent"),
						otherPublications, keys.size(), keys.stream().distinct().count(), mails, delivered.toSeconds()));
				assertThat(signups).isEqualTo(1);
				assertThat(retry.statusCode()).isEqualTo(410);
				assertThat(retry.body()).contains("idempotency_result_unavailable");
				assertThat(replay.statusCode()).isEqualTo(200);
				assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
				assertThat(publications).as("publications of the killed signup").isEqualTo(1);
				assertThat(otherPublications).as("publications of the replayed signup").isEqualTo(1);
				assertThat(keys).as("calls to the mail API: one per signup").hasSize(2).doesNotHaveDuplicates();
				assertThat(mails).isEqualTo(2);
				assertThat(signups(postgres, otherEmail)).isEqualTo(1);
			}
		}
	}

	@Test
	void killedWhileTheListenerSendsTheMailTheMailApiSeesOneKey() {
		String key = UUID.randomUUID().toString();
		String email = key + "@example.com";
		try (PostgresServer postgres = PostgresServer.start(SCENARIO); RecordingMailApi mailApi = RecordingMailApi.start()) {
			try (OutboxConsumerApp victim = OutboxConsumerApp.start(SCENARIO, "outbox-killed-in-listener", postgres,
					mailApi, LEASE_TTL, "--consumer.hold-after-mail=true")) {
				assertThat(victim.signUp(key, email).statusCode()).isEqualTo(200);
				victim.process().awaitLog("Mail sent; holding the listener before its commit", TIMEOUT);
				assertThat(mailApi.keys()).as("calls to the mail API before the kill").hasSize(1);
				assertThat(mails(postgres)).as("mail rows before the kill (the listener has not committed)").isZero();
				victim.kill();
			}
			long restarting = System.nanoTime();
			try (OutboxConsumerApp restarted = OutboxConsumerApp.start(SCENARIO, "outbox-restarted-resubmitting",
					postgres, mailApi, LEASE_TTL, "--consumer.resubmit-every=1s", "--consumer.resubmit-older-than=1s")) {
				restarted.process()
					.awaitCondition(() -> publications(postgres, email, true) == 1, "the publication completed", TIMEOUT);
				Duration delivered = Duration.ofNanos(System.nanoTime() - restarting);
				List<String> keys = mailApi.keys();
				int mails = mails(postgres);
				Report.write(SCENARIO + "-in-listener", """
						| | count |
						|---|---|
						| signups | 1 |
						| calls to the mail API before the `kill -9` (the listener's transaction not committed) | 1 |
						| calls to the mail API after the restart (resubmitted every 1 s once the lease, 5 s, expired) | %d |
						| distinct `Idempotency-Key`s received: operations of a downstream that deduplicates | %d |
						| mail rows | %d |

						From the restart's start to the publication's completion: %d s (JVM start, then the lease's end).
						""".formatted(keys.size() - 1, keys.stream().distinct().count(), mails, delivered.toSeconds()));
				assertThat(keys).as("every call carries the derived key").doesNotContain("");
				assertThat(keys).as("the resubmission repeats the call").hasSize(2);
				assertThat(keys.stream().distinct()).as("one key: one operation downstream").hasSize(1);
				assertThat(mails).isEqualTo(1);
			}
		}
	}

	private static int signups(PostgresServer postgres, String email) {
		return Integer.parseInt(
				postgres.sql("SELECT count(*) FROM consumer_outbox_signups WHERE email = '" + email + "'"));
	}

	private static int mails(PostgresServer postgres) {
		return Integer.parseInt(postgres.sql("SELECT count(*) FROM consumer_outbox_mails"));
	}

	/** Publications of the signup's event: all, completed only, or incomplete only. */
	private static int publications(PostgresServer postgres, String email, Boolean completed) {
		String condition = (completed == null) ? "" : completed ? " AND completion_date IS NOT NULL"
				: " AND completion_date IS NULL";
		return Integer.parseInt(postgres.sql("SELECT count(*) FROM event_publication WHERE serialized_event LIKE '%"
				+ email + "%'" + condition));
	}

}
