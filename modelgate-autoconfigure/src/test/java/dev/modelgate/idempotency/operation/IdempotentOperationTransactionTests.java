package dev.modelgate.idempotency.operation;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.boot.transaction.autoconfigure.TransactionManagerCustomizationAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.annotation.Transactional;

import dev.modelgate.idempotency.IdempotentOperation;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyAutoConfiguration;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyOperationsAutoConfiguration;
import dev.modelgate.idempotency.core.IdempotencyResultUnavailableException;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencySchema;
import dev.modelgate.idempotency.testsupport.PostgresTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@code @IdempotentOperation} together with {@code @Transactional} on the JDBC store: the
 * idempotency advice runs outside the transaction, so the record is marked applied when the
 * transaction commits, and a transaction that fails to commit leaves the key free.
 */
@Tag("boot")
class IdempotentOperationTransactionTests {

	private static final String TABLE = "modelgate_idempotency_operation_tx_test";

	private static final String OUTBOX = "modelgate_idempotency_operation_tx_outbox";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class,
				ModelgateIdempotencyOperationsAutoConfiguration.class, JacksonAutoConfiguration.class,
				JdbcTemplateAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class,
				TransactionManagerCustomizationAutoConfiguration.class, TransactionAutoConfiguration.class))
		.withBean(DataSource.class, PostgresTestServer::dataSource)
		.withPropertyValues("modelgate.idempotency.store=jdbc", "modelgate.idempotency.jdbc.table-name=" + TABLE,
				"modelgate.idempotency.lease-ttl=300ms")
		.withUserConfiguration(OutboxConfiguration.class);

	@BeforeAll
	static void createTables() {
		PostgresTestServer.recreateTable(TABLE, JdbcIdempotencySchema.script(TABLE));
		PostgresTestServer.jdbcTemplate().execute("DROP TABLE IF EXISTS " + OUTBOX);
		PostgresTestServer.jdbcTemplate()
			.execute("CREATE TABLE " + OUTBOX + " (id SERIAL PRIMARY KEY, message_key VARCHAR(64) NOT NULL)");
	}

	@Test
	void transactionalMethodRunsOnceAndIsReplayed() {
		this.contextRunner.run((context) -> {
			Outbox outbox = context.getBean(Outbox.class);
			String key = UUID.randomUUID().toString();

			assertThat(outbox.enqueue(key)).isEqualTo("queued");
			assertThat(outbox.enqueue(key)).isEqualTo("queued");
			assertThat(context.getBean(Counters.class).runs).hasValue(1);
			assertThat(rows(key)).isEqualTo(1);
		});
	}

	@Test
	void releasedAfterTheTransactionCommittedTheKeyStaysSpent() {
		this.contextRunner.run((context) -> {
			Outbox outbox = context.getBean(Outbox.class);
			Counters counters = context.getBean(Counters.class);
			String key = UUID.randomUUID().toString();

			assertThatIllegalStateException().isThrownBy(() -> outbox.enqueueThenFailOutsideTheTransaction(key));
			assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
				.isThrownBy(() -> outbox.enqueueThenFailOutsideTheTransaction(key));
			assertThat(counters.runs).hasValue(1);
			assertThat(rows(key)).isEqualTo(1);
		});
	}

	@Test
	void transactionThatFailsToCommitLeavesTheKeyFreeForARetry() {
		this.contextRunner.run((context) -> {
			Outbox outbox = context.getBean(Outbox.class);
			Counters counters = context.getBean(Counters.class);
			String key = UUID.randomUUID().toString();
			counters.refuseNextCommit.set(true);

			// Were the transaction outside the idempotency advice, the result would be recorded before
			// the commit failed, and the retry would replay an effect that never happened.
			assertThatIllegalStateException().isThrownBy(() -> outbox.enqueue(key)).withMessage("commit refused");
			String retry = outbox.enqueue(key);

			assertThat(retry).isEqualTo("queued");
			assertThat(counters.runs).hasValue(2);
			assertThat(rows(key)).isEqualTo(1);
		});
	}

	private static int rows(String key) {
		return PostgresTestServer.jdbcTemplate()
			.queryForObject("SELECT count(*) FROM " + OUTBOX + " WHERE message_key = ?", Integer.class, key);
	}

	@Configuration(proxyBeanMethods = false)
	static class OutboxConfiguration {

		@Bean
		Counters counters() {
			return new Counters();
		}

		@Bean
		OutboxWriter outboxWriter(JdbcTemplate jdbcTemplate, Counters counters) {
			return new OutboxWriter(jdbcTemplate, counters);
		}

		@Bean
		Outbox outbox(OutboxWriter writer) {
			return new Outbox(writer);
		}

		/** Fails the next commit when told to, after the applied mark was written in it. */
		@Bean
		TransactionExecutionListener commitRefuser(Counters counters) {
			return new TransactionExecutionListener() {
				@Override
				public void beforeCommit(TransactionExecution transaction) {
					if (counters.refuseNextCommit.getAndSet(false)) {
						throw new IllegalStateException("commit refused");
					}
				}
			};
		}

	}

	public static class Counters {

		final AtomicInteger runs = new AtomicInteger();

		final AtomicBoolean refuseNextCommit = new AtomicBoolean();

	}

	/** Writes to the outbox table in a transaction of its own. */
	public static class OutboxWriter {

		private final JdbcTemplate jdbcTemplate;

		private final Counters counters;

		OutboxWriter(JdbcTemplate jdbcTemplate, Counters counters) {
			this.jdbcTemplate = jdbcTemplate;
			this.counters = counters;
		}

		@Transactional
		public void insert(String key) {
			this.counters.runs.incrementAndGet();
			this.jdbcTemplate.update("INSERT INTO " + OUTBOX + " (message_key) VALUES (?)", key);
		}

		@IdempotentOperation(key = "#key", scope = "outbox.enqueue")
		@Transactional
		public String enqueue(String key) {
			insert(key);
			return "queued";
		}

	}

	/** Enqueues once per key, in the writer's transaction or around it. */
	public static class Outbox {

		private final OutboxWriter writer;

		Outbox(OutboxWriter writer) {
			this.writer = writer;
		}

		public String enqueue(String key) {
			return this.writer.enqueue(key);
		}

		/** Commits the write, then fails: the retry must not write again. */
		@IdempotentOperation(key = "#key")
		public String enqueueThenFailOutsideTheTransaction(String key) {
			this.writer.insert(key);
			throw new IllegalStateException("the answer was lost after the commit");
		}

	}

}
