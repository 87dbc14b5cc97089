package dev.modelgate.idempotency.messaging;

import java.util.List;
import java.util.function.BiFunction;

/**
 * The batch a listener container hands to a batch listener on this thread, record by record, as
 * {@code @IdempotentListener} reads it.
 *
 * @param messages the batch's messages, in the order of the listener's list arguments
 * @param failedAt what the container gets when the message at an index was refused (the listener ran
 * with the messages before it): the broker's way of saying where the batch stopped
 */
public record InboundBatch(List<InboundMessage> messages,
		BiFunction<RuntimeException, Integer, RuntimeException> failedAt) {

	public InboundBatch {
		messages = List.copyOf(messages);
	}

}
