package dev.modelgate.idempotency.messaging;

import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * The message a listener container is handling on this thread, as {@code @IdempotentListener} reads
 * it.
 *
 * @param listener the consumer group (Kafka) or queue (RabbitMQ) the message was consumed for
 * @param headers a header's value as text, or {@code null} when the message does not have it
 * @param messageId the broker's message id, or {@code null}
 * @param payload the payload as received: bytes, text, or an object written as JSON
 * @param message the message as received, {@code #message} in key expressions
 * @param refusals turns what the listener's advice threw into what the broker does with the message
 */
public record InboundMessage(String listener, Function<String, @Nullable String> headers, @Nullable String messageId,
		@Nullable Object payload, Object message, Refusals refusals) {

	/** What a broker does with a message its idempotent listener did not run, or ran and failed. */
	@FunctionalInterface
	public interface Refusals {

		/**
		 * @param failure what the listener's advice threw: a refusal of the template, or the listener's failure
		 * @return what the listener returns instead, when the message is acknowledged
		 * @throws RuntimeException what the container gets instead, when it is not
		 */
		@Nullable Object handle(RuntimeException failure);

	}

}
