package dev.modelgate.consumers.kafkajdbc;

import java.util.concurrent.CountDownLatch;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;

/**
 * For the reliability suite only ({@code consumer.hold-after-commit=true}): after the first transaction commits,
 * the listener thread says so and never returns, so the record's offset stays uncommitted until the suite kills the
 * process ({@code kill -9}) inside the window between the commit and the offset commit. Spring Boot adds this listener to its
 * transaction manager.
 */
@Component
@ConditionalOnBooleanProperty("consumer.hold-after-commit")
class HoldAfterCommit implements TransactionExecutionListener {

	/** The line the suite waits for before it kills the process. */
	static final String HOLDING = "Committed; holding the listener thread before the offset commit";

	private static final Logger logger = LoggerFactory.getLogger(HoldAfterCommit.class);

	private final CountDownLatch never = new CountDownLatch(1);

	@Override
	public void afterCommit(TransactionExecution transaction, Throwable commitFailure) {
		if (commitFailure != null) {
			return;
		}
		logger.info(HOLDING);
		try {
			this.never.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
