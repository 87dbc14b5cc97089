package dev.modelgate.idempotency.messaging.amqp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessagePostProcessor;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.config.AbstractRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.listener.ConditionalRejectingErrorHandler;
import org.springframework.amqp.rabbit.retry.MessageRecoverer;
import org.springframework.beans.DirectFieldAccessor;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.util.ErrorHandler;
import org.springframework.util.function.SingletonSupplier;

import dev.modelgate.idempotency.messaging.InboundMessage;
import dev.modelgate.idempotency.messaging.InboundMessages;

/**
 * Gives the application's RabbitMQ listener container factories what {@code @IdempotentListener}
 * needs: an after-receive post-processor that makes the message known to the listener thread (after
 * the factory's own ones), and an error handler that logs a duplicate in progress in one line. A
 * factory is post-processed when it is created, so every container it creates has the hook before
 * it can deliver a message; containers of any factory get it, whether their listeners are
 * idempotent or not.
 */
public class RabbitListenerIdempotency implements BeanPostProcessor {

	private final MessagePostProcessor hook;

	/**
	 * @param inProgressDelay how long a consumer waits before requeueing a duplicate that runs
	 * elsewhere; asked for on the first message
	 * @param recoverer dead-letters final refusals with the reason, or gives {@code null} to reject
	 * them without requeue (the queue's dead-letter exchange gets them); asked for on the first message
	 */
	public RabbitListenerIdempotency(Supplier<Duration> inProgressDelay, Supplier<@Nullable MessageRecoverer> recoverer) {
		Supplier<Duration> delay = SingletonSupplier.of(inProgressDelay);
		Supplier<@Nullable MessageRecoverer> dead = SingletonSupplier.of(recoverer);
		this.hook = (message) -> {
			InboundMessages.set(inbound(message, delay.get(), dead.get()));
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
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof AbstractRabbitListenerContainerFactory<?> factory) {
			// Spring AMQP has no getters for either, on both lines; the fields are the same.
			DirectFieldAccessor fields = new DirectFieldAccessor(factory);
			MessagePostProcessor[] existing = (MessagePostProcessor[]) fields.getPropertyValue("afterReceivePostProcessors");
			List<MessagePostProcessor> processors = new ArrayList<>((existing != null) ? Arrays.asList(existing) : List.of());
			processors.add(this.hook);
			factory.setAfterReceivePostProcessors(processors.toArray(MessagePostProcessor[]::new));
			ErrorHandler errorHandler = (ErrorHandler) fields.getPropertyValue("errorHandler");
			factory.setErrorHandler(new InProgressLogging(
					(errorHandler != null) ? errorHandler : new ConditionalRejectingErrorHandler()));
		}
		return bean;
	}

}
