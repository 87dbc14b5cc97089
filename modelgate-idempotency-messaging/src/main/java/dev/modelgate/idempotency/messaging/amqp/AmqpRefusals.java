package dev.modelgate.idempotency.messaging.amqp;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.amqp.AmqpRejectAndDontRequeueException;
import org.springframework.amqp.ImmediateRequeueAmqpException;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.retry.MessageRecoverer;

import dev.modelgate.idempotency.core.IdempotencyInProgressException;
import dev.modelgate.idempotency.messaging.InboundMessage;
import dev.modelgate.idempotency.messaging.ListenerRefusals;

/**
 * What RabbitMQ does with a message its idempotent listener did not run. A duplicate in progress
 * elsewhere is requeued after a delay (the consumer waits before rejecting it, so that it is not
 * redelivered at once), whatever the container does with other rejected messages. A final refusal is dead-lettered with the reason: handed to the recoverer
 * (a {@code RepublishMessageRecoverer} adds the exception's message as {@code x-exception-message})
 * and acknowledged, or, without one, rejected without requeue so that the queue's dead-letter
 * exchange gets it. The listener's own failures go to the container unchanged.
 */
final class AmqpRefusals implements InboundMessage.Refusals {

	private final Message message;

	private final Duration inProgressDelay;

	private final @Nullable MessageRecoverer recoverer;

	AmqpRefusals(Message message, Duration inProgressDelay, @Nullable MessageRecoverer recoverer) {
		this.message = message;
		this.inProgressDelay = inProgressDelay;
		this.recoverer = recoverer;
	}

	@Override
	public @Nullable Object handle(RuntimeException failure) {
		if (failure instanceof IdempotencyInProgressException) {
			try {
				Thread.sleep(this.inProgressDelay.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			// Requeued even where rejected messages are dead-lettered (default-requeue-rejected=false).
			throw new ImmediateRequeueAmqpException(failure.getMessage(), failure);
		}
		if (!ListenerRefusals.isFinal(failure)) {
			throw failure;
		}
		if (this.recoverer == null) {
			throw new AmqpRejectAndDontRequeueException(failure.getMessage(), failure);
		}
		this.recoverer.recover(this.message, failure);
		return null;
	}

}
