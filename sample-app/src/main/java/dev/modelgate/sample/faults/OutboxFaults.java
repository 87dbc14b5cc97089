package dev.modelgate.sample.faults;

import java.util.concurrent.atomic.AtomicBoolean;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Two switches for the outbox profile's mail path, each failing the next pass once, in this process
 * (only when {@code modelgate.sample.faults.enabled=true}; armed by a test): the externalization of a
 * mail event, as a crash after the business commit and before the event reached RabbitMQ would leave it
 * (its publication stays incomplete until resubmitted); and the mail consumer after its transaction
 * committed and before the ack, as a consumer that dies there would (the broker delivers the message
 * again).
 */
@Component
@ConditionalOnBooleanProperty("modelgate.sample.faults.enabled")
public class OutboxFaults {

	private final AtomicBoolean externalization = new AtomicBoolean();

	private final AtomicBoolean consumerAck = new AtomicBoolean();

	/** The next externalization of a mail event fails before anything is sent. */
	public void failNextExternalization() {
		this.externalization.set(true);
	}

	/** The next mail consumer's run fails after its transaction committed, before the ack. */
	public void failNextConsumerAck() {
		this.consumerAck.set(true);
	}

	/** Called by the externalizer before it sends. */
	public void beforeExternalization() {
		if (this.externalization.getAndSet(false)) {
			throw new IllegalStateException("Simulated crash after the commit, before the mail event reached RabbitMQ");
		}
	}

	/** Called by the mail consumer inside its transaction. */
	public void inConsumerTransaction() {
		if (this.consumerAck.getAndSet(false)) {
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
				@Override
				public void afterCommit() {
					throw new IllegalStateException("Simulated consumer crash after its commit, before the ack");
				}
			});
		}
	}

}
