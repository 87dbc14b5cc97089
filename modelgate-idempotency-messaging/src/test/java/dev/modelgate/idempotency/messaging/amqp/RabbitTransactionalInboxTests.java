package dev.modelgate.idempotency.messaging.amqp;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.annotation.EnableRabbit;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.RabbitListenerEndpointRegistry;
import org.springframework.amqp.rabbit.retry.RepublishMessageRecoverer;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.modelgate.idempotency.IdempotentListener;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencySchema;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencyStore;
import dev.modelgate.idempotency.jdbc.MarkAppliedTransactionListener;
import dev.modelgate.idempotency.messaging.ListenerTestSupport;
import dev.modelgate.idempotency.testsupport.PostgresTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The transactional inbox: a {@code @Transactional} {@code @IdempotentListener} on the JDBC store
 * (PostgreSQL) marks its record applied in its own transaction, so a rollback leaves the key free for
 * the redelivery, and a commit spends it even when the consumer fails before acknowledging.
 */
@Tag("store")
class RabbitTransactionalInboxTests {

	static final String TABLE = "modelgate_idempotency_inbox_test";

	static final String INBOX = "modelgate_idempotency_inbox_rows";

	static final String QUEUE = "modelgate-test-inbox-" + UUID.randomUUID();

	static final String DEAD = QUEUE + "-dead";

	private static AnnotationConfigApplicationContext context;

	private static RabbitTemplate rabbit;

	private static Inbox inbox;

	@BeforeAll
	static void start() {
		PostgresTestServer.recreateTable(TABLE, JdbcIdempotencySchema.script(TABLE));
		PostgresTestServer.jdbcTemplate().execute("DROP TABLE IF EXISTS " + INBOX);
		PostgresTestServer.jdbcTemplate()
			.execute("CREATE TABLE " + INBOX + " (id SERIAL PRIMARY KEY, message_key VARCHAR(64) NOT NULL)");
		System.setProperty("test.inbox.queue", QUEUE);
		context = new AnnotationConfigApplicationContext(InboxApplication.class);
		rabbit = context.getBean(RabbitTemplate.class);
		inbox = context.getBean(Inbox.class);
	}

	@AfterAll
	static void stop() {
		context.getBean(RabbitListenerEndpointRegistry.class).stop();
		RabbitAdmin admin = context.getBean(RabbitAdmin.class);
		context.getBean(RabbitTestConfiguration.TestQueues.class).delete(admin);
		context.close();
	}

	@Test
	void rolledBackListenerLeavesTheKeyFreeAndTheRedeliveryRunsItOnce() {
		String key = UUID.randomUUID().toString();
		inbox.refuseNextCommit().set(true);
		send(key);

		await().atMost(Duration.ofSeconds(30)).until(() -> rows(key) == 1 && messages(QUEUE) == 0);
		assertThat(inbox.runs()).hasValueGreaterThanOrEqualTo(2);
		int runs = inbox.runs().get();

		send(key);
		String marker = UUID.randomUUID().toString();
		send(marker);
		await().atMost(Duration.ofSeconds(30)).until(() -> rows(marker) == 1);
		assertThat(rows(key)).isEqualTo(1);
		assertThat(inbox.runs()).hasValue(runs + 1);
		assertThat(messages(DEAD)).isZero();
	}

	@Test
	void committedListenerSpendsTheKeyEvenWhenTheConsumerFailsBeforeTheAck() {
		String key = UUID.randomUUID().toString();
		int before = inbox.runs().get();
		inbox.failAfterNextCommit().set(true);
		send(key);

		// The failure after the commit releases nothing: the redelivery finds the key applied in the
		// listener's transaction, and is acknowledged without running.
		await().atMost(Duration.ofSeconds(30)).until(() -> inbox.failedAfterCommit().get() && messages(QUEUE) == 0);
		String marker = UUID.randomUUID().toString();
		send(marker);
		await().atMost(Duration.ofSeconds(30)).until(() -> rows(marker) == 1);
		assertThat(rows(key)).isEqualTo(1);
		assertThat(inbox.runs()).hasValue(before + 2);
		assertThat(messages(DEAD)).isZero();
	}

	private static void send(String key) {
		MessageProperties properties = new MessageProperties();
		properties.setHeader("Idempotency-Key", key);
		rabbit.send("", QUEUE, new Message(("book " + key).getBytes(), properties));
	}

	private static long messages(String queue) {
		return context.getBean(RabbitAdmin.class).getQueueInfo(queue).getMessageCount();
	}

	private static int rows(String key) {
		return PostgresTestServer.jdbcTemplate()
			.queryForObject("SELECT count(*) FROM " + INBOX + " WHERE message_key = ?", Integer.class, key);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableRabbit
	@EnableTransactionManagement
	@Import({ ListenerTestSupport.class, RabbitTestConfiguration.class })
	static class InboxApplication {

		@Bean
		DataSource dataSource() {
			return PostgresTestServer.dataSource();
		}

		@Bean
		JdbcTemplate jdbcTemplate(DataSource dataSource) {
			return new JdbcTemplate(dataSource);
		}

		@Bean
		JdbcIdempotencyStore idempotencyStore(JdbcTemplate jdbcTemplate) {
			return new JdbcIdempotencyStore(jdbcTemplate, TABLE);
		}

		@Bean
		Inbox inbox(JdbcTemplate jdbcTemplate) {
			return new Inbox(jdbcTemplate);
		}

		/** Marks records applied in the transaction, and fails the next commit when told to. */
		@Bean
		JdbcTransactionManager transactionManager(DataSource dataSource, JdbcIdempotencyStore store, Inbox inbox) {
			JdbcTransactionManager transactionManager = new JdbcTransactionManager(dataSource);
			transactionManager.addListener(new MarkAppliedTransactionListener(store));
			transactionManager.addListener(new TransactionExecutionListener() {
				@Override
				public void beforeCommit(TransactionExecution transaction) {
					if (inbox.refuseNextCommit().getAndSet(false)) {
						throw new IllegalStateException("commit refused");
					}
				}
			});
			return transactionManager;
		}

		@Bean
		RabbitTestConfiguration.TestQueues testQueues() {
			return new RabbitTestConfiguration.TestQueues(List.of(QUEUE, DEAD));
		}

		@Bean
		SimpleRabbitListenerContainerFactory rabbitListenerContainerFactory(CachingConnectionFactory connectionFactory,
				RabbitAdmin admin) {
			SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
			factory.setConnectionFactory(connectionFactory);
			factory.setPrefetchCount(1);
			return factory;
		}

		@Bean
		static RabbitListenerIdempotency rabbitListenerIdempotency(ObjectProvider<RabbitTemplate> rabbitTemplate) {
			return new RabbitListenerIdempotency(() -> Duration.ofMillis(200),
					() -> new RepublishMessageRecoverer(rabbitTemplate.getObject(), "", DEAD));
		}

	}

	/** Books each message into a table, in a transaction. */
	static class Inbox {

		private final JdbcTemplate jdbcTemplate;

		private final AtomicInteger runs = new AtomicInteger();

		private final AtomicBoolean refuseNextCommit = new AtomicBoolean();

		private final AtomicBoolean failAfterNextCommit = new AtomicBoolean();

		private final AtomicBoolean failedAfterCommit = new AtomicBoolean();

		Inbox(JdbcTemplate jdbcTemplate) {
			this.jdbcTemplate = jdbcTemplate;
		}

		@RabbitListener(queues = "${test.inbox.queue}")
		@IdempotentListener
		@Transactional
		public void book(String payload, @Header("Idempotency-Key") String key) {
			this.runs.incrementAndGet();
			this.jdbcTemplate.update("INSERT INTO " + INBOX + " (message_key) VALUES (?)", key);
			if (this.failAfterNextCommit.getAndSet(false)) {
				// The consumer fails after the commit and before the ack (as a crash would).
				TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
					@Override
					public void afterCommit() {
						Inbox.this.failedAfterCommit.set(true);
						throw new IllegalStateException("consumer failed after the commit");
					}
				});
			}
		}

		AtomicInteger runs() {
			return this.runs;
		}

		AtomicBoolean refuseNextCommit() {
			return this.refuseNextCommit;
		}

		AtomicBoolean failAfterNextCommit() {
			return this.failAfterNextCommit;
		}

		AtomicBoolean failedAfterCommit() {
			return this.failedAfterCommit;
		}

	}

}
