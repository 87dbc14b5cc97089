package dev.modelgate.consumers.outbox;

import java.util.concurrent.CountDownLatch;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;

/**
 * For the reliability suite only: holds a thread forever at one point of the outbox, says so in the log, and
 * waits for {@code kill -9}. {@code consumer.hold-after-commit}: the signup's transaction committed (the row and
 * the publication) and its event is not delivered yet. {@code consumer.hold-after-mail}: the listener called the
 * mail API and its transaction has not committed.
 */
@Component
public class Holds {

	static final String AFTER_COMMIT = "Signup committed; holding before its event is delivered";

	static final String AFTER_MAIL = "Mail sent; holding the listener before its commit";

	private static final Logger logger = LoggerFactory.getLogger(Holds.class);

	private final CountDownLatch never = new CountDownLatch(1);

	private final boolean afterCommit;

	private final boolean afterMail;

	public Holds(@Value("${consumer.hold-after-commit:false}") boolean afterCommit,
			@Value("${consumer.hold-after-mail:false}") boolean afterMail) {
		this.afterCommit = afterCommit;
		this.afterMail = afterMail;
	}

	boolean afterCommit() {
		return this.afterCommit;
	}

	/**
	 * Runs before the transaction's other synchronizations, among them the one that hands the event to its
	 * listener after the commit.
	 */
	TransactionSynchronization beforeDelivery() {
		return new TransactionSynchronization() {
			@Override
			public int getOrder() {
				return Ordered.HIGHEST_PRECEDENCE;
			}

			@Override
			public void afterCommit() {
				hold(AFTER_COMMIT);
			}
		};
	}

	void afterMail() {
		if (this.afterMail) {
			hold(AFTER_MAIL);
		}
	}

	private void hold(String what) {
		logger.info(what);
		try {
			this.never.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
