package dev.modelgate.consumers.outbox;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.modulith.events.IncompleteEventPublications;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.util.ClassUtils;

import dev.modelgate.idempotency.IdempotentOperation;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyAutoConfiguration;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyOperationsAutoConfiguration;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyOutboxAutoConfiguration;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencySchema;
import dev.modelgate.idempotency.outbox.EventKeys;
import dev.modelgate.idempotency.outbox.IdempotentEvent;
import dev.modelgate.idempotency.outbox.IdempotentEventListener;
import dev.modelgate.idempotency.outbox.IncompletePublicationsMetrics;
import dev.modelgate.idempotency.testsupport.PostgresTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * The outbox on real PostgreSQL: Spring Modulith's JDBC event publication registry and the JDBC
 * idempotency store in one database. A keyed operation publishes an event with a derived key in its
 * transaction; an {@code @ApplicationModuleListener} with {@code @IdempotentEventListener} sends the
 * "mail" (a row written in the listener's transaction, and a counter) at most once per key.
 */
@Tag("boot")
class OutboxTransactionTests {

	/** Each Spring Boot line's run has tables of its own (Spring Modulith 1.4 and 2 differ in theirs). */
	private static final String LINE = ClassUtils.isPresent(
			"org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration",
			OutboxTransactionTests.class.getClassLoader()) ? "boot4" : "boot3";

	private static final String TABLE = "modelgate_idempotency_outbox_test_" + LINE;

	private static final String SCHEMA = "modelgate_outbox_test_" + LINE;

	private static final String MAIL = "modelgate_outbox_test_mail_" + LINE;

	private static final String PUBLICATIONS = SCHEMA + ".event_publication";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class,
				ModelgateIdempotencyOperationsAutoConfiguration.class, ModelgateIdempotencyOutboxAutoConfiguration.class,
				AopAutoConfiguration.class, TaskExecutionAutoConfiguration.class,
				// By name: Spring Boot 4 moved these (the Spring Boot 3.5 twin of this application runs this test
				// too), and Spring Modulith's are package-private.
				named("org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration",
						"org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration"),
				named("org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration",
						"org.springframework.boot.autoconfigure.jdbc.JdbcTemplateAutoConfiguration"),
				named("org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
						"org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration"),
				named("org.springframework.boot.transaction.autoconfigure.TransactionManagerCustomizationAutoConfiguration",
						"org.springframework.boot.autoconfigure.transaction.TransactionManagerCustomizationAutoConfiguration"),
				named("org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration",
						"org.springframework.boot.autoconfigure.transaction.TransactionAutoConfiguration"),
				named("org.springframework.modulith.events.config.EventPublicationAutoConfiguration"),
				named("org.springframework.modulith.events.jdbc.JdbcEventPublicationAutoConfiguration"),
				named("org.springframework.modulith.events.jackson.JacksonEventSerializationConfiguration")))
		.withBean(DataSource.class, PostgresTestServer::dataSource)
		.withPropertyValues("modelgate.idempotency.store=jdbc", "modelgate.idempotency.jdbc.table-name=" + TABLE,
				"spring.modulith.events.jdbc.schema=" + SCHEMA,
				"spring.modulith.events.jdbc.schema-initialization.enabled=true")
		.withUserConfiguration(SignupConfiguration.class);

	@BeforeAll
	static void createTables() {
		PostgresTestServer.recreateTable(TABLE, JdbcIdempotencySchema.script(TABLE));
		JdbcTemplate jdbc = PostgresTestServer.jdbcTemplate();
		jdbc.execute("DROP TABLE IF EXISTS " + MAIL);
		jdbc.execute("CREATE TABLE " + MAIL + " (id SERIAL PRIMARY KEY, message_key VARCHAR(64) NOT NULL)");
		jdbc.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
	}

	@BeforeEach
	void noPublications() {
		JdbcTemplate jdbc = PostgresTestServer.jdbcTemplate();
		if (PostgresTestServer.tableExists(PUBLICATIONS)) {
			jdbc.update("DELETE FROM " + PUBLICATIONS);
		}
	}

	@Test
	void publishesInTheBusinessTransactionDeliversOnceAndAReplayPublishesNothing() {
		this.contextRunner.run((context) -> {
			SignupService signup = context.getBean(SignupService.class);
			Effects effects = context.getBean(Effects.class);
			String key = UUID.randomUUID().toString();

			signup.signUp(key, "ada@example.com");
			signup.signUp(key, "ada@example.com");

			await().atMost(Duration.ofSeconds(10)).until(() -> completed(effects.sentKeys()) == 1);
			assertThat(effects.runs).hasValue(1);
			assertThat(effects.publishedKeys).hasSize(1);
			assertThat(publications(effects.publishedKeys.get(0))).isEqualTo(1);
			assertThat(effects.mails).hasValue(1);
			assertThat(mailRows(effects.publishedKeys.get(0))).isEqualTo(1);
		});
	}

	@Test
	void resubmittedPublicationDoesNotRepeatTheEffect() {
		this.contextRunner.run((context) -> {
			SignupService signup = context.getBean(SignupService.class);
			Effects effects = context.getBean(Effects.class);
			signup.signUp(UUID.randomUUID().toString(), "ada@example.com");
			String eventKey = effects.publishedKeys.get(0);
			await().atMost(Duration.ofSeconds(10)).until(() -> completed(List.of(eventKey)) == 1);

			// What a process killed after the listener's commit and before Spring Modulith marked the
			// publication completed leaves behind: the mail sent, the publication incomplete.
			PostgresTestServer.jdbcTemplate()
				.update("UPDATE " + PUBLICATIONS + " SET " + incomplete() + " WHERE serialized_event LIKE ?",
						"%" + eventKey + "%");
			assertThat(completed(List.of(eventKey))).isZero();
			context.getBean(IncompleteEventPublications.class).resubmitIncompletePublications((publication) -> true);

			await().atMost(Duration.ofSeconds(10)).until(() -> completed(List.of(eventKey)) == 1);
			assertThat(effects.mails).hasValue(1);
			assertThat(mailRows(eventKey)).isEqualTo(1);
		});
	}

	@Test
	void failedListenerIsRunAgainByAResubmissionAndTheGaugesShowTheBacklog() {
		this.contextRunner.run((context) -> {
			SignupService signup = context.getBean(SignupService.class);
			Effects effects = context.getBean(Effects.class);
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			context.getBean(IncompletePublicationsMetrics.class).bindTo(registry);
			effects.mailServerDown.set(true);

			signup.signUp(UUID.randomUUID().toString(), "ada@example.com");
			String eventKey = effects.publishedKeys.get(0);
			await().atMost(Duration.ofSeconds(10)).until(() -> effects.failures.get() == 1);

			await().atMost(Duration.ofSeconds(10))
				.until(() -> registry.get(IncompletePublicationsMetrics.COUNT).gauge().value() == 1.0);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> registry.get(IncompletePublicationsMetrics.OLDEST_AGE).timeGauge().value() > 0);
			assertThat(effects.mails).hasValue(0);

			effects.mailServerDown.set(false);
			context.getBean(IncompleteEventPublications.class).resubmitIncompletePublications((publication) -> true);

			await().atMost(Duration.ofSeconds(10)).until(() -> completed(List.of(eventKey)) == 1);
			assertThat(effects.mails).hasValue(1);
			assertThat(registry.get(IncompletePublicationsMetrics.COUNT).gauge().value()).isZero();
			assertThat(registry.get(IncompletePublicationsMetrics.OLDEST_AGE).timeGauge().value()).isZero();
		});
	}

	@Test
	void reExecutionAfterAFailedRunPublishesTheSameKeyOnce() {
		this.contextRunner.run((context) -> {
			SignupService signup = context.getBean(SignupService.class);
			Effects effects = context.getBean(Effects.class);
			String key = UUID.randomUUID().toString();
			effects.failAfterPublishing.set(true);

			assertThatIllegalStateException().isThrownBy(() -> signup.signUp(key, "ada@example.com"));
			signup.signUp(key, "ada@example.com");
			signup.signUp(UUID.randomUUID().toString(), "ada@example.com");

			assertThat(effects.runs).hasValue(3);
			assertThat(effects.publishedKeys).hasSize(3);
			assertThat(effects.publishedKeys.get(1)).isEqualTo(effects.publishedKeys.get(0));
			assertThat(effects.publishedKeys.get(2)).isNotEqualTo(effects.publishedKeys.get(0));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> completed(effects.publishedKeys.subList(1, 3)) == 2);
			assertThat(publications(effects.publishedKeys.get(0))).isEqualTo(1);
			assertThat(effects.mails).hasValue(2);
		});
	}

	/** {@return the first of the classes present} */
	private static Class<?> named(String... classNames) {
		ClassLoader classLoader = OutboxTransactionTests.class.getClassLoader();
		for (String className : classNames) {
			if (ClassUtils.isPresent(className, classLoader)) {
				return ClassUtils.resolveClassName(className, classLoader);
			}
		}
		throw new IllegalStateException("None of " + String.join(", ", classNames) + " is on the class path");
	}

	/** Spring Modulith 2 keeps a status beside the completion date; 1.4 has the date only. */
	private static String incomplete() {
		Integer statusColumns = PostgresTestServer.jdbcTemplate()
			.queryForObject("SELECT count(*) FROM information_schema.columns WHERE table_schema = ? "
					+ "AND table_name = 'event_publication' AND column_name = 'status'", Integer.class, SCHEMA);
		return "completion_date = NULL" + ((statusColumns != null && statusColumns > 0) ? ", status = 'PUBLISHED'" : "");
	}

	private static int publications(String eventKey) {
		return PostgresTestServer.jdbcTemplate()
			.queryForObject("SELECT count(*) FROM " + PUBLICATIONS + " WHERE serialized_event LIKE ?", Integer.class,
					"%" + eventKey + "%");
	}

	private static int completed(List<String> eventKeys) {
		return eventKeys.stream()
			.mapToInt((eventKey) -> PostgresTestServer.jdbcTemplate()
				.queryForObject("SELECT count(*) FROM " + PUBLICATIONS
						+ " WHERE serialized_event LIKE ? AND completion_date IS NOT NULL", Integer.class,
						"%" + eventKey + "%"))
			.sum();
	}

	private static int mailRows(String eventKey) {
		return PostgresTestServer.jdbcTemplate()
			.queryForObject("SELECT count(*) FROM " + MAIL + " WHERE message_key = ?", Integer.class, eventKey);
	}

	public record WelcomeMailRequested(String idempotencyKey, String to) implements IdempotentEvent {
	}

	static class Effects {

		final AtomicInteger runs = new AtomicInteger();

		final AtomicInteger mails = new AtomicInteger();

		final AtomicInteger failures = new AtomicInteger();

		final List<String> publishedKeys = new CopyOnWriteArrayList<>();

		final AtomicBoolean failAfterPublishing = new AtomicBoolean();

		final AtomicBoolean mailServerDown = new AtomicBoolean();

		List<String> sentKeys() {
			return this.publishedKeys.isEmpty() ? List.of() : List.of(this.publishedKeys.get(0));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAsync
	static class SignupConfiguration {

		@Bean
		Effects effects() {
			return new Effects();
		}

		@Bean
		SignupService signup(JdbcTemplate jdbcTemplate, ApplicationEventPublisher events, Effects effects) {
			return new SignupService(jdbcTemplate, events, effects);
		}

		@Bean
		WelcomeMailer welcomeMailer(JdbcTemplate jdbcTemplate, Effects effects) {
			return new WelcomeMailer(jdbcTemplate, effects);
		}

	}

	public static class SignupService {

		private final JdbcTemplate jdbcTemplate;

		private final ApplicationEventPublisher events;

		private final Effects effects;

		SignupService(JdbcTemplate jdbcTemplate, ApplicationEventPublisher events, Effects effects) {
			this.jdbcTemplate = jdbcTemplate;
			this.events = events;
			this.effects = effects;
		}

		@IdempotentOperation(key = "#key")
		@Transactional
		public String signUp(String key, String to) {
			this.effects.runs.incrementAndGet();
			String eventKey = EventKeys.derive("welcome-mail");
			this.effects.publishedKeys.add(eventKey);
			this.events.publishEvent(new WelcomeMailRequested(eventKey, to));
			if (this.effects.failAfterPublishing.getAndSet(false)) {
				throw new IllegalStateException("the signup failed after publishing");
			}
			return "ok";
		}

	}

	public static class WelcomeMailer {

		private final JdbcTemplate jdbcTemplate;

		private final Effects effects;

		WelcomeMailer(JdbcTemplate jdbcTemplate, Effects effects) {
			this.jdbcTemplate = jdbcTemplate;
			this.effects = effects;
		}

		@ApplicationModuleListener
		@IdempotentEventListener
		public void on(WelcomeMailRequested event) {
			if (this.effects.mailServerDown.get()) {
				this.effects.failures.incrementAndGet();
				throw new IllegalStateException("the mail server is down");
			}
			this.jdbcTemplate.update("INSERT INTO " + MAIL + " (message_key) VALUES (?)", event.idempotencyKey());
			this.effects.mails.incrementAndGet();
		}

	}

}
