package dev.modelgate.idempotency.messaging.amqp;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessagePostProcessor;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.listener.AbstractMessageListenerContainer;
import org.springframework.amqp.rabbit.listener.MessageListenerContainer;
import org.springframework.amqp.rabbit.listener.RabbitListenerEndpointRegistry;
import org.springframework.amqp.rabbit.retry.MessageRecoverer;
import org.springframework.context.SmartLifecycle;

import dev.modelgate.idempotency.messaging.InboundMessage;
import dev.modelgate.idempotency.messaging.InboundMessages;

/**
 * Makes the message a RabbitMQ listener thread handles known to {@code @IdempotentListener} methods:
 * an after-receive post-processor, added to every container of the registry (beside the ones it
 * has) just before the registry starts them. A container is given it whether its listeners are
 * idempotent or not; it only records the message on the thread.
 */
public class RabbitListenerIdempotency implements SmartLifecycle {

	private final RabbitListenerEndpointRegistry registry;

	private final MessagePostProcessor hook;

	private volatile boolean running;

	private boolean attached;

	/**
	 * @param registry the registry whose containers run {@code @RabbitListener} methods
	 * @param inProgressDelay how long a consumer waits before requeueing a duplicate that runs elsewhere
	 * @param recoverer dead-letters final refusals with the reason, or {@code null} to reject them
	 * without requeue (the queue's dead-letter exchange gets them)
	 */
	public RabbitListenerIdempotency(RabbitListenerEndpointRegistry registry, Duration inProgressDelay,
			@Nullable MessageRecoverer recoverer) {
		this.registry = registry;
		this.hook = (message) -> {
			InboundMessages.set(inbound(message, inProgressDelay, recoverer));
			return message;
		};
	}

	private static InboundMessage inbound(Message message, Duration inProgressDelay,
			@Nullable MessageRecoverer recoverer) {
		MessageProperties properties = message.getMessageProperties();
		String queue = properties.getConsumerQueue();
		return new InboundMessage((queue != null) ? queue : "", (name) -> {
			Object value = properties.getHeader(name);
			return (value != null) ? value.toString() : null;
		}, properties.getMessageId(), message.getBody(), message,
				new AmqpRefusals(message, inProgressDelay, recoverer));
	}

	@Override
	public synchronized void start() {
		if (!this.attached) {
			attach();
			this.attached = true;
		}
		this.running = true;
	}

	private void attach() {
		for (MessageListenerContainer container : this.registry.getListenerContainers()) {
			if (container instanceof AbstractMessageListenerContainer listenerContainer) {
				listenerContainer.addAfterReceivePostProcessors(this.hook);
			}
		}
	}

	@Override
	public void stop() {
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/** Just before the registry, which starts the containers. */
	@Override
	public int getPhase() {
		return this.registry.getPhase() - 1;
	}

}
