package dev.modelgate.consumers.outbox;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.boot.transaction.autoconfigure.TransactionManagerCustomizationAutoConfiguration;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.modulith.events.EventExternalizationConfiguration;
import org.springframework.modulith.events.Externalized;
import org.springframework.modulith.events.IncompleteEventPublications;
import org.springframework.modulith.events.config.EventExternalizationAutoConfiguration;
import org.springframework.modulith.events.config.EventPublicationAutoConfiguration;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.util.ClassUtils;

import dev.modelgate.idempotency.IdempotentListener;
import dev.modelgate.idempotency.IdempotentOperation;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyAutoConfiguration;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyListenersAutoConfiguration;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyOperationsAutoConfiguration;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyOutboxAutoConfiguration;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencySchema;
import dev.modelgate.idempotency.outbox.EventKeys;
import dev.modelgate.idempotency.outbox.IdempotentEvent;
import dev.modelgate.idempotency.outbox.IdempotentEventHeaders;
import dev.modelgate.idempotency.testsupport.PostgresTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An event externalized to Kafka by Spring Modulith carries its derived key in the {@code Idempotency-Key} header
 * ({@link IdempotentEventHeaders}), and an {@code @IdempotentListener} in another application (here another
 * consumer group) runs once per key: when the externalization's publication is resubmitted and the event is sent a
 * second time, the listener acknowledges the duplicate without running. On a Kafka broker in this JVM (KRaft) and
 * PostgreSQL.
 */
@Tag("boot")
class OutboxKafkaExternalizationTests {

	private static final String TOPIC = "modelgate-outbox-signups";

	private static final String TABLE = "modelgate_idempotency_outbox_kafka_test";

	private static final String SCHEMA = "modelgate_outbox_kafka_test";

	private static final String PUBLICATIONS = SCHEMA + ".event_publication";

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static EmbeddedKafkaKraftBroker broker;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class,
				ModelgateIdempotencyOperationsAutoConfiguration.class, ModelgateIdempotencyOutboxAutoConfiguration.class,
				ModelgateIdempotencyListenersAutoConfiguration.class, JacksonAutoConfiguration.class,
				JdbcTemplateAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class,
				TransactionManagerCustomizationAutoConfiguration.class, TransactionAutoConfiguration.class,
				AopAutoConfiguration.class, TaskExecutionAutoConfiguration.class, KafkaAutoConfiguration.class,
				EventPublicationAutoConfiguration.class, EventExternalizationAutoConfiguration.class,
				named("org.springframework.modulith.events.jdbc.JdbcEventPublicationAutoConfiguration"),
				named("org.springframework.modulith.events.jackson.JacksonEventSerializationConfiguration"),
				named("org.springframework.modulith.events.kafka.KafkaEventExternalizerConfiguration"),
				named("org.springframework.modulith.events.kafka.KafkaJacksonConfiguration")))
		.withBean(DataSource.class, PostgresTestServer::dataSource)
		.withPropertyValues("modelgate.idempotency.store=jdbc", "modelgate.idempotency.jdbc.table-name=" + TABLE,
				"spring.modulith.events.jdbc.schema=" + SCHEMA,
				"spring.modulith.events.jdbc.schema-initialization.enabled=true",
				"spring.kafka.producer.value-serializer=org.apache.kafka.common.serialization.ByteArraySerializer",
				"spring.kafka.consumer.auto-offset-reset=earliest")
		.withUserConfiguration(ExternalizingConfiguration.class);

	@BeforeAll
	static void startBroker() {
		broker = new EmbeddedKafkaKraftBroker(1, 1, TOPIC);
		broker.afterPropertiesSet();
		PostgresTestServer.recreateTable(TABLE, JdbcIdempotencySchema.script(TABLE));
		JdbcTemplate jdbc = PostgresTestServer.jdbcTemplate();
		jdbc.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
		if (PostgresTestServer.tableExists(PUBLICATIONS)) {
			jdbc.update("DELETE FROM " + PUBLICATIONS);
		}
	}

	@AfterAll
	static void stopBroker() {
		broker.destroy();
	}

	@Test
	void resubmittedExternalizationSendsTheSameKeyAndTheIdempotentListenerRunsOnce() {
		this.contextRunner.withPropertyValues("spring.kafka.bootstrap-servers=" + broker.getBrokersAsString())
			.run((context) -> {
				Received received = context.getBean(Received.class);
				String signupKey = UUID.randomUUID().toString();
				context.getBean(SignupService.class).signUp(signupKey, "ada@example.com");
				String eventKey = received.published.get(0);

				await().atMost(TIMEOUT).until(() -> received.headers.size() == 1);
				assertThat(received.headers).containsExactly(eventKey);
				await().atMost(TIMEOUT).until(() -> committed("welcome") == 1);

				// The externalization's publication left incomplete (a process killed after the send and before the
				// completion), then resubmitted: Kafka gets the event a second time, with the same key.
				PostgresTestServer.jdbcTemplate()
					.update("UPDATE " + PUBLICATIONS + " SET completion_date = NULL, status = 'PUBLISHED'");
				context.getBean(IncompleteEventPublications.class).resubmitIncompletePublications((publication) -> true);

				await().atMost(TIMEOUT).until(() -> received.headers.size() == 2);
				await().atMost(TIMEOUT).until(() -> committed("welcome") == 2);
				assertThat(received.headers).containsExactly(eventKey, eventKey);
				assertThat(received.welcomes).hasValue(1);
			});
	}

	private static long committed(String group) throws Exception {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()))) {
			Map<?, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
				.partitionsToOffsetAndMetadata()
				.get();
			return offsets.values().stream().mapToLong((offset) -> (offset != null) ? offset.offset() : 0).sum();
		}
	}

	private static Class<?> named(String className) {
		return ClassUtils.resolveClassName(className, OutboxKafkaExternalizationTests.class.getClassLoader());
	}

	@Externalized(TOPIC)
	public record SignedUp(String idempotencyKey, String email) implements IdempotentEvent {
	}

	static class Received {

		final List<String> published = new CopyOnWriteArrayList<>();

		final List<String> headers = new CopyOnWriteArrayList<>();

		final AtomicInteger welcomes = new AtomicInteger();

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAsync
	static class ExternalizingConfiguration {

		@Bean
		EventExternalizationConfiguration eventExternalizationConfiguration() {
			return EventExternalizationConfiguration.externalizing()
				.select(EventExternalizationConfiguration.annotatedAsExternalized())
				.headers(IdempotentEvent.class, IdempotentEventHeaders::of)
				.build();
		}

		@Bean
		Received received() {
			return new Received();
		}

		@Bean
		SignupService signupService(JdbcTemplate jdbcTemplate, ApplicationEventPublisher events, Received received) {
			return new SignupService(events, received);
		}

		@Bean
		WelcomeConsumer welcomeConsumer(Received received) {
			return new WelcomeConsumer(received);
		}

		@Bean
		Tap tap(Received received) {
			return new Tap(received);
		}

	}

	public static class SignupService {

		private final ApplicationEventPublisher events;

		private final Received received;

		SignupService(ApplicationEventPublisher events, Received received) {
			this.events = events;
			this.received = received;
		}

		@IdempotentOperation(key = "#key")
		@Transactional
		public void signUp(String key, String email) {
			String eventKey = EventKeys.derive("signed-up");
			this.received.published.add(eventKey);
			this.events.publishEvent(new SignedUp(eventKey, email));
		}

	}

	/** The other application's listener: runs once per key. */
	public static class WelcomeConsumer {

		private final Received received;

		WelcomeConsumer(Received received) {
			this.received = received;
		}

		@KafkaListener(topics = TOPIC, groupId = "welcome")
		@IdempotentListener
		public void on(SignedUp event) {
			this.received.welcomes.incrementAndGet();
		}

	}

	/** Sees every record sent, with its key header. */
	public static class Tap {

		private final Received received;

		Tap(Received received) {
			this.received = received;
		}

		@KafkaListener(topics = TOPIC, groupId = "tap")
		public void on(ConsumerRecord<String, String> record) {
			Header key = record.headers().lastHeader("Idempotency-Key");
			this.received.headers.add((key != null) ? new String(key.value(), StandardCharsets.UTF_8) : "none");
		}

	}

}
