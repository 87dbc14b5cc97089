package dev.modelgate.idempotency.messaging.kafka;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;

import org.springframework.kafka.listener.BatchInterceptor;
import org.springframework.kafka.listener.BatchListenerFailedException;

import dev.modelgate.idempotency.messaging.InboundBatch;
import dev.modelgate.idempotency.messaging.InboundMessage;
import dev.modelgate.idempotency.messaging.InboundMessages;

/**
 * Makes the batch a Kafka batch listener thread handles known to {@code @IdempotentListener} methods,
 * record by record, in the order of the listener's lists. A record refused inside the batch becomes a
 * {@link BatchListenerFailedException} naming it, which the container's {@code DefaultErrorHandler}
 * understands: it commits the records before it, and retries from it after its back-off (in progress
 * elsewhere) or hands it to its recoverer at once (a final refusal, classified not retryable by
 * {@link KafkaListenerIdempotency}).
 */
public class IdempotentBatchInterceptor implements BatchInterceptor<Object, Object> {

	@Override
	public ConsumerRecords<Object, Object> intercept(ConsumerRecords<Object, Object> records,
			Consumer<Object, Object> consumer) {
		List<ConsumerRecord<Object, Object>> list = new ArrayList<>(records.count());
		records.forEach(list::add);
		List<InboundMessage> messages = new ArrayList<>(list.size());
		for (ConsumerRecord<Object, Object> record : list) {
			messages.add(IdempotentRecordInterceptor.inbound(record));
		}
		InboundMessages.setBatch(new InboundBatch(messages,
				(failure, index) -> new BatchListenerFailedException(failure.getMessage(), failure, list.get(index))));
		return records;
	}

	/** The error handler may call the listener again with the same batch: it stays known until the next one. */
	@Override
	public void success(ConsumerRecords<Object, Object> records, Consumer<Object, Object> consumer) {
		InboundMessages.clear();
	}

	@Override
	public void clearThreadState(Consumer<?, ?> consumer) {
		InboundMessages.clear();
	}

}
