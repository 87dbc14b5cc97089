package dev.modelgate.idempotency.jdbc;

import java.io.IOException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyResultUnavailableException;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.IdempotentCall;
import dev.modelgate.idempotency.core.ResultCodec;
import dev.modelgate.idempotency.core.StoredOutcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * Programmatic work that writes in a transaction on the store's database: the template binds its
 * attempt to the thread, so the record is marked applied with the work's effects, and a retry after
 * a crash between the commit and the record is told the operation ran instead of running it again.
 */
@Tag("store")
class JdbcTemplateTransactionalCompletionTests {

	private static final String TABLE = "modelgate_idempotency_template_tx_test";

	private static final String OUTBOX = "modelgate_idempotency_template_tx_outbox";

	private static final Duration SHORT_LEASE = Duration.ofMillis(300);

	private final DataSource dataSource = database().dataSource();

	private final JdbcTemplate jdbcTemplate = new JdbcTemplate(this.dataSource);

	private final JdbcIdempotencyStore store = database().store(this.jdbcTemplate, TABLE);

	/** {@return the server this class runs on; its MariaDB subclass says MariaDB} */
	TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

	private final DataSourceTransactionManager transactionManager = new DataSourceTransactionManager(this.dataSource);

	private final TransactionTemplate transactions = new TransactionTemplate(this.transactionManager);

	private final AtomicInteger runs = new AtomicInteger();

	private IdempotencyCoordinator coordinator;

	private String key;

	@BeforeEach
	void registerListener() {
		database().createOnce(TABLE);
		database().createBusinessTableOnce(OUTBOX, "id SERIAL PRIMARY KEY, message_key VARCHAR(64) NOT NULL");
		this.transactionManager.addListener(new MarkAppliedTransactionListener(this.store));
		this.key = UUID.randomUUID().toString();
	}

	@AfterEach
	void closeCoordinator() {
		if (this.coordinator != null) {
			this.coordinator.close();
		}
	}

	@Test
	void crashAfterTheWorkCommittedAndBeforeTheRecordIsNotRunAgain() throws Exception {
		// The process "dies" after begin: nothing it does later reaches the store.
		IdempotencyTemplate dying = template(new DiesAfterBegin(this.store));
		String first = dying.execute(call(), this::writeToOutbox);
		assertThat(first).isEqualTo("queued");
		DatabaseDeadlines.awaitEveryLeaseExpired(database(), TABLE);

		assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
			.isThrownBy(() -> template(this.store).execute(call(), this::writeToOutbox));
		assertThat(this.runs).hasValue(1);
		assertThat(outboxRows()).isEqualTo(1);
	}

	@Test
	void retryableFailureAfterTheWorkCommittedKeepsTheKeySpent() {
		IdempotencyTemplate template = template(this.store);
		assertThatIOException().isThrownBy(() -> template.execute(call(), () -> {
			writeToOutbox();
			throw new IOException("answer lost");
		}));

		assertThatExceptionOfType(IdempotencyResultUnavailableException.class)
			.isThrownBy(() -> template.execute(call(), this::writeToOutbox));
		assertThat(this.runs).hasValue(1);
		assertThat(outboxRows()).isEqualTo(1);
	}

	@Test
	void workThatCommitsAndCompletesIsReplayed() {
		IdempotencyTemplate template = template(this.store);
		template.execute(call(), this::writeToOutbox);
		String retry = template.execute(call(), this::writeToOutbox);

		assertThat(retry).isEqualTo("queued");
		assertThat(this.runs).hasValue(1);
		assertThat(outboxRows()).isEqualTo(1);
	}

	@Test
	void workWhoseTransactionRolledBackIsReleasedAndRunsAgain() {
		IdempotencyTemplate template = template(this.store);
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> template.execute(call(), () -> {
			this.transactions.executeWithoutResult((status) -> {
				this.runs.incrementAndGet();
				insertOutboxRow();
				throw new IllegalStateException("constraint violated");
			});
			return "never";
		}));
		String retry = template.execute(call(), this::writeToOutbox);

		assertThat(retry).isEqualTo("queued");
		assertThat(this.runs).hasValue(2);
		assertThat(outboxRows()).isEqualTo(1);
	}

	private IdempotencyTemplate template(IdempotencyStore store) {
		if (this.coordinator != null) {
			this.coordinator.close();
		}
		this.coordinator = IdempotencyCoordinator.create(store, Duration.ofSeconds(5));
		return new IdempotencyTemplate(this.coordinator);
	}

	private IdempotentCall<String> call() {
		return IdempotentCall.of("outbox.enqueue", this.key, ResultCodec.utf8()).withLeaseTtl(SHORT_LEASE);
	}

	private String writeToOutbox() {
		this.runs.incrementAndGet();
		this.transactions.executeWithoutResult((status) -> insertOutboxRow());
		return "queued";
	}

	private void insertOutboxRow() {
		this.jdbcTemplate.update("INSERT INTO " + OUTBOX + " (message_key) VALUES (?)", this.key);
	}

	private int outboxRows() {
		return this.jdbcTemplate.queryForObject("SELECT count(*) FROM " + OUTBOX + " WHERE message_key = ?",
				Integer.class, this.key);
	}

	/**
	 * A store the process stops talking to once the work runs, as if it died: renewals, completion and
	 * release never arrive. The business transaction still commits, since it is the work's own.
	 */
	private static final class DiesAfterBegin implements IdempotencyStore {

		private final IdempotencyStore delegate;

		DiesAfterBegin(IdempotencyStore delegate) {
			this.delegate = delegate;
		}

		@Override
		public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			return this.delegate.begin(scope, fingerprint, token, leaseTtl);
		}

		@Override
		public boolean renew(String scope, String token, Duration leaseTtl) {
			throw new IdempotencyStoreException("process is gone");
		}

		@Override
		public boolean complete(String scope, String token, StoredOutcome response, Duration ttl) {
			throw new IdempotencyStoreException("process is gone");
		}

		@Override
		public boolean release(String scope, String token) {
			throw new IdempotencyStoreException("process is gone");
		}

	}

}
