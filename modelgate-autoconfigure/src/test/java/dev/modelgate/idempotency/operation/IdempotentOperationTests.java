package dev.modelgate.idempotency.operation;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.modelgate.idempotency.IdempotentOperation;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyAutoConfiguration;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyMetricsAutoConfiguration;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyOperationsAutoConfiguration;
import dev.modelgate.idempotency.core.IdempotencyKeyReusedException;
import dev.modelgate.idempotency.core.OutcomeUnknownException;
import dev.modelgate.idempotency.core.RecordedFailureException;
import dev.modelgate.idempotency.micrometer.MicrometerIdempotencyListener;
import dev.modelgate.idempotency.testsupport.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@code @IdempotentOperation} on a Spring bean in an application that is not a web application,
 * with the auto-configured Redis store on a real server: keys and fingerprints from SpEL over the
 * method's arguments, results kept as JSON of the return type, failures released, recorded or left
 * unknown and reconciled through a bean.
 */
@Tag("boot")
class IdempotentOperationTests {

	// Unique per run, so that builds sharing one Redis never see each other's records.
	private static final String PREFIX = "modelgate:test:operations:" + UUID.randomUUID() + ":";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class,
				ModelgateIdempotencyOperationsAutoConfiguration.class, JacksonAutoConfiguration.class,
				DataRedisAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.host=" + RedisTestServer.host(),
				"spring.data.redis.port=" + RedisTestServer.port(), "modelgate.idempotency.redis.key-prefix=" + PREFIX)
		.withUserConfiguration(MailConfiguration.class);

	@AfterAll
	static void deleteRecords() {
		LettuceConnectionFactory connectionFactory = RedisTestServer.connectionFactory();
		StringRedisTemplate redis = new StringRedisTemplate(connectionFactory);
		var keys = redis.keys(PREFIX + "*");
		if (!keys.isEmpty()) {
			redis.delete(keys);
		}
		connectionFactory.destroy();
	}

	@Test
	void beanWithAnnotatedMethodIsProxied() {
		this.contextRunner.run((context) -> assertThat(AopUtils.isAopProxy(context.getBean(Mailer.class))).isTrue());
	}

	@Test
	void runsMethodOnceAndReplaysAnEqualResult() {
		this.contextRunner.run((context) -> {
			Mailer mailer = context.getBean(Mailer.class);
			MailLog log = context.getBean(MailLog.class);
			String key = UUID.randomUUID().toString();

			Receipt first = mailer.send(key, new Mail("alice@example.com", "Hello"));
			Receipt retry = mailer.send(key, new Mail("alice@example.com", "Hello"));

			assertThat(retry).isEqualTo(first).isNotSameAs(first);
			assertThat(log.sends).hasValue(1);
		});
	}

	@Test
	void reportsTheSameDecisionsAsTheWebFilterToTheMetrics() {
		this.contextRunner
			.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyMetricsAutoConfiguration.class))
			.withBean(SimpleMeterRegistry.class)
			.withBean(ObservationRegistry.class, ObservationRegistry::create)
			.run((context) -> {
				Mailer mailer = context.getBean(Mailer.class);
				String key = UUID.randomUUID().toString();
				mailer.send(key, new Mail("alice@example.com", "Hello"));
				mailer.send(key, new Mail("alice@example.com", "Hello"));

				MeterRegistry registry = context.getBean(MeterRegistry.class);
				for (String outcome : List.of("acquired", "recorded", "replayed")) {
					assertThat(registry.find(MicrometerIdempotencyListener.DECISIONS)
						.tags("outcome", outcome, "method", "OPERATION")
						.counter())
						.as(outcome)
						.isNotNull()
						.satisfies((counter) -> assertThat(counter.count()).isEqualTo(1));
				}
				assertThat(registry.find(MicrometerIdempotencyListener.REQUESTS).tags("kind", "replay").timer())
					.isNotNull();
			});
	}

	@Test
	void keyExpressionSeparatesCalls() {
		this.contextRunner.run((context) -> {
			Mailer mailer = context.getBean(Mailer.class);
			MailLog log = context.getBean(MailLog.class);

			Receipt one = mailer.send(UUID.randomUUID().toString(), new Mail("alice@example.com", "Hello"));
			Receipt other = mailer.send(UUID.randomUUID().toString(), new Mail("alice@example.com", "Hello"));

			assertThat(other).isNotEqualTo(one);
			assertThat(log.sends).hasValue(2);
		});
	}

	@Test
	void fingerprintExpressionRefusesKeyReusedForAnotherMail() {
		this.contextRunner.run((context) -> {
			Mailer mailer = context.getBean(Mailer.class);
			MailLog log = context.getBean(MailLog.class);
			String key = UUID.randomUUID().toString();
			mailer.send(key, new Mail("alice@example.com", "Hello"));

			assertThatExceptionOfType(IdempotencyKeyReusedException.class)
				.isThrownBy(() -> mailer.send(key, new Mail("bob@example.com", "Hello")));
			assertThat(log.sends).hasValue(1);
		});
	}

	@Test
	void keyBuiltFromSeveralArgumentsByPosition() {
		this.contextRunner.run((context) -> {
			Mailer mailer = context.getBean(Mailer.class);
			MailLog log = context.getBean(MailLog.class);
			String day = "2025-06-0" + (1 + Math.abs(UUID.randomUUID().hashCode() % 9));
			String to = UUID.randomUUID() + "@example.com";

			mailer.sendDigest(new Mail(to, "Digest"), day);
			mailer.sendDigest(new Mail(to, "Digest"), day);
			mailer.sendDigest(new Mail(to, "Digest"), day + "-next");

			assertThat(log.digests).hasValue(2);
		});
	}

	@Test
	void genericReturnTypeIsReplayedWithItsElementType() {
		this.contextRunner.run((context) -> {
			Mailer mailer = context.getBean(Mailer.class);
			MailLog log = context.getBean(MailLog.class);
			String key = UUID.randomUUID().toString();
			List<Mail> batch = List.of(new Mail("a@example.com", "A"), new Mail("b@example.com", "B"));

			List<Receipt> first = mailer.sendBatch(key, batch);
			List<Receipt> retry = mailer.sendBatch(key, batch);

			assertThat(retry).isEqualTo(first).hasSize(2).allSatisfy((receipt) -> assertThat(receipt).isInstanceOf(Receipt.class));
			assertThat(log.sends).hasValue(2);
		});
	}

	@Test
	void retryableFailureIsThrownUnchangedAndTheRetryRunsAgain() {
		this.contextRunner.run((context) -> {
			Mailer mailer = context.getBean(Mailer.class);
			MailLog log = context.getBean(MailLog.class);
			String key = UUID.randomUUID().toString();
			log.failNext.set(new IOException("mail server refused the connection"));

			assertThatIOException().isThrownBy(() -> mailer.sendChecked(key)).withMessageContaining("refused");
			assertThat(mailer.sendChecked(key).to()).isEqualTo("checked@example.com");
			assertThat(log.sends).hasValue(2);
		});
	}

	@Test
	void failureListedInRecordOnIsReplayedWithoutRunningTheMethod() {
		this.contextRunner.run((context) -> {
			Mailer mailer = context.getBean(Mailer.class);
			MailLog log = context.getBean(MailLog.class);
			String key = UUID.randomUUID().toString();

			assertThatIllegalArgumentException().isThrownBy(() -> mailer.sendToInvalidAddress(key));
			assertThatExceptionOfType(RecordedFailureException.class).isThrownBy(() -> mailer.sendToInvalidAddress(key))
				.satisfies((ex) -> assertThat(ex.getFailureType()).isEqualTo(IllegalArgumentException.class.getName()));
			assertThat(log.sends).hasValue(1);
		});
	}

	@Test
	void unknownOutcomeIsReconciledThroughABeanInsteadOfSendingAgain() {
		this.contextRunner.run((context) -> {
			Mailer mailer = context.getBean(Mailer.class);
			MailLog log = context.getBean(MailLog.class);
			MailApi api = context.getBean(MailApi.class);
			String key = UUID.randomUUID().toString();
			log.timeOutAfterSending.set(true);

			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> mailer.sendWithTimeouts(key))
				.withRootCauseInstanceOf(SocketTimeoutException.class);
			Receipt reconciled = mailer.sendWithTimeouts(key);

			assertThat(reconciled).isEqualTo(api.sent.get(key));
			assertThat(log.sends).hasValue(1);
			assertThat(api.lookups).hasValue(1);
			assertThat(mailer.sendWithTimeouts(key)).isEqualTo(reconciled);
			assertThat(api.lookups).hasValue(1);
		});
	}

	@Test
	void unknownOutcomeNotFoundDownstreamRunsTheMethodAgain() {
		this.contextRunner.run((context) -> {
			Mailer mailer = context.getBean(Mailer.class);
			MailLog log = context.getBean(MailLog.class);
			MailApi api = context.getBean(MailApi.class);
			String key = UUID.randomUUID().toString();
			log.timeOutBeforeSending.set(true);

			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> mailer.sendWithTimeouts(key));
			Receipt sent = mailer.sendWithTimeouts(key);

			assertThat(api.sent.get(key)).isEqualTo(sent);
			assertThat(api.lookups).hasValue(1);
			assertThat(log.sends).hasValue(1);
		});
	}

	@Test
	void unknownOutcomeOfAVoidMethodIsReconciledByABoolean() {
		this.contextRunner.run((context) -> {
			Mailer mailer = context.getBean(Mailer.class);
			MailLog log = context.getBean(MailLog.class);
			String key = UUID.randomUUID().toString();

			assertThatExceptionOfType(OutcomeUnknownException.class).isThrownBy(() -> mailer.notifyOnce(key, true));
			mailer.notifyOnce(key, false);
			mailer.notifyOnce(key, false);

			assertThat(log.notifications).hasValue(1);
		});
	}

	@Test
	void keyThatEvaluatesToNullIsRefusedBeforeTheMethodRuns() {
		this.contextRunner.run((context) -> {
			Mailer mailer = context.getBean(Mailer.class);
			MailLog log = context.getBean(MailLog.class);

			assertThatIllegalArgumentException().isThrownBy(() -> mailer.send(null, new Mail("a@example.com", "A")))
				.withMessageContaining("#toolKey");
			assertThat(log.sends).hasValue(0);
		});
	}

	@Test
	void asynchronousReturnTypeIsRefused() {
		this.contextRunner.run((context) -> {
			Mailer mailer = context.getBean(Mailer.class);
			MailLog log = context.getBean(MailLog.class);

			assertThatIllegalStateException().isThrownBy(() -> mailer.sendLater("key"))
				.withMessageContaining("asynchronous");
			assertThat(log.sends).hasValue(0);
		});
	}

	@Test
	void methodsWithoutTheAnnotationAreNotIntercepted() {
		this.contextRunner.run((context) -> {
			Mailer mailer = context.getBean(Mailer.class);
			MailLog log = context.getBean(MailLog.class);

			mailer.sendUnprotected();
			mailer.sendUnprotected();

			assertThat(log.sends).hasValue(2);
		});
	}

	@Test
	void disabledIdempotencyLeavesTheBeanUnproxied() {
		this.contextRunner.withPropertyValues("modelgate.idempotency.enabled=false").run((context) -> {
			Mailer mailer = context.getBean(Mailer.class);
			MailLog log = context.getBean(MailLog.class);
			String key = UUID.randomUUID().toString();

			mailer.send(key, new Mail("alice@example.com", "Hello"));
			mailer.send(key, new Mail("alice@example.com", "Hello"));

			assertThat(AopUtils.isAopProxy(mailer)).isFalse();
			assertThat(log.sends).hasValue(2);
		});
	}

	public record Mail(String to, String subject) {
	}

	public record Receipt(String messageId, String to) {
	}

	@Configuration(proxyBeanMethods = false)
	static class MailConfiguration {

		@Bean
		MailApi mailApi() {
			return new MailApi();
		}

		@Bean
		MailLog mailLog() {
			return new MailLog();
		}

		@Bean
		Mailer mailer(MailApi mailApi, MailLog mailLog) {
			return new Mailer(mailApi, mailLog);
		}

	}

	/**
	 * How often each method of {@link Mailer} really ran, and the faults it is told to simulate; a bean
	 * of its own because the fields of a class proxy are not the target's.
	 */
	public static class MailLog {

		final AtomicInteger sends = new AtomicInteger();

		final AtomicInteger digests = new AtomicInteger();

		final AtomicInteger notifications = new AtomicInteger();

		final AtomicReference<IOException> failNext = new AtomicReference<>();

		final AtomicBoolean timeOutAfterSending = new AtomicBoolean();

		final AtomicBoolean timeOutBeforeSending = new AtomicBoolean();

		public boolean notified() {
			return this.notifications.get() > 0;
		}

	}

	/** A downstream mail service that can be asked what it sent under a key. */
	public static class MailApi {

		final Map<String, Receipt> sent = new ConcurrentHashMap<>();

		final AtomicInteger lookups = new AtomicInteger();

		public Optional<Receipt> findSent(String key) {
			this.lookups.incrementAndGet();
			return Optional.ofNullable(this.sent.get(key));
		}

	}

	/** The bean under test; counts how often each method really ran. */
	public static class Mailer {

		private final MailApi api;

		private final MailLog log;

		Mailer(MailApi api, MailLog log) {
			this.api = api;
			this.log = log;
		}

		@IdempotentOperation(key = "#toolKey", fingerprint = "#mail")
		public Receipt send(String toolKey, Mail mail) {
			return new Receipt("msg-" + this.log.sends.incrementAndGet() + "-" + UUID.randomUUID(), mail.to());
		}

		@IdempotentOperation(key = "#p0.to() + '/' + #p1", scope = "mail.digest")
		public void sendDigest(Mail mail, String day) {
			this.log.digests.incrementAndGet();
		}

		@IdempotentOperation(key = "#key")
		public List<Receipt> sendBatch(String key, List<Mail> mails) {
			return mails.stream().map((mail) -> send0(mail.to())).toList();
		}

		@IdempotentOperation(key = "#key")
		public Receipt sendChecked(String key) throws IOException {
			Receipt receipt = send0("checked@example.com");
			IOException failure = this.log.failNext.getAndSet(null);
			if (failure != null) {
				throw failure;
			}
			return receipt;
		}

		@IdempotentOperation(key = "#key", recordOn = IllegalArgumentException.class)
		public Receipt sendToInvalidAddress(String key) {
			send0("nobody");
			throw new IllegalArgumentException("no such mailbox: nobody");
		}

		@IdempotentOperation(key = "#key", unknownOn = SocketTimeoutException.class,
				reconcile = "@mailApi.findSent(#key)")
		public Receipt sendWithTimeouts(String key) {
			if (this.log.timeOutBeforeSending.getAndSet(false)) {
				throw new IllegalStateException("mail API call failed", new SocketTimeoutException("connect timed out"));
			}
			Receipt receipt = send0("timeout@example.com");
			this.api.sent.put(key, receipt);
			if (this.log.timeOutAfterSending.getAndSet(false)) {
				throw new IllegalStateException("mail API call failed", new SocketTimeoutException("read timed out"));
			}
			return receipt;
		}

		@IdempotentOperation(key = "#key", reconcile = "@mailLog.notified()")
		public void notifyOnce(String key, boolean timeOut) {
			this.log.notifications.incrementAndGet();
			if (timeOut) {
				throw new OutcomeUnknownException("push gateway timed out");
			}
		}

		@IdempotentOperation(key = "#key")
		public CompletableFuture<Receipt> sendLater(String key) {
			return CompletableFuture.completedFuture(send0("later@example.com"));
		}

		public Receipt sendUnprotected() {
			return send0("unprotected@example.com");
		}

		private Receipt send0(String to) {
			return new Receipt("msg-" + this.log.sends.incrementAndGet() + "-" + UUID.randomUUID(), to);
		}

	}

}
