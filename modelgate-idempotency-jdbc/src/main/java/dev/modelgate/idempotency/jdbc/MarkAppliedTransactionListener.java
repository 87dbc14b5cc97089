package dev.modelgate.idempotency.jdbc;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.JdbcTransactionObjectSupport;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.support.DefaultTransactionStatus;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.modelgate.idempotency.core.IdempotencyContext;

/**
 * Ties an idempotent attempt to the business transactions it commits: when a transaction on the
 * store's {@link DataSource} is about to commit while an attempt is bound to the thread (see
 * {@link IdempotencyContext}), the attempt's record is {@linkplain JdbcIdempotencyStore#markApplied
 * marked as applied} in that same transaction. The mark is conditional on the attempt's token, so an
 * attempt that lost its lease gets a {@link LeaseLostException} and its transaction rolls back, and
 * an attempt whose process dies after the commit leaves a record that retries will not run again.
 *
 * <p>Register it on the transaction manager ({@code addListener}); Spring Boot does that for the
 * transaction managers it auto-configures. Read-only transactions are left alone: they have no
 * effects to mark, and a write would fail in them.
 */
public class MarkAppliedTransactionListener implements TransactionExecutionListener {

	private final JdbcIdempotencyStore store;

	/** @param store the store whose records the transactions mark */
	public MarkAppliedTransactionListener(JdbcIdempotencyStore store) {
		this.store = store;
	}

	/**
	 * Called by the transaction manager for an outermost transaction, after the transaction's
	 * synchronizations ran and before its connection commits; an exception here rolls it back.
	 */
	@Override
	public void beforeCommit(TransactionExecution transaction) {
		if (transaction.isReadOnly()) {
			return;
		}
		IdempotencyContext.current().ifPresent((held) -> {
			if (isOnStoreDataSource(transaction)) {
				this.store.markApplied(held.scope(), held.token());
			}
		});
	}

	/**
	 * Whether the committing transaction runs on the connection that the store's statements would join.
	 * Comparing the transaction's own connection (rather than only asking whether one is bound for the
	 * DataSource) keeps a transaction on another database, begun inside one on the store's, from
	 * writing the mark into the outer one.
	 */
	private boolean isOnStoreDataSource(TransactionExecution transaction) {
		Object bound = TransactionSynchronizationManager.getResource(this.store.getDataSource());
		return bound != null && transaction instanceof DefaultTransactionStatus status
				&& status.getTransaction() instanceof JdbcTransactionObjectSupport jdbcTransaction
				&& jdbcTransaction.hasConnectionHolder() && jdbcTransaction.getConnectionHolder() == bound;
	}

}
