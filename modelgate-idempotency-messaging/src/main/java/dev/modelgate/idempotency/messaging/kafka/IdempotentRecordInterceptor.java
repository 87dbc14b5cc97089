package dev.modelgate.idempotency.messaging.kafka;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.jspecify.annotations.Nullable;

import org.springframework.kafka.listener.RecordInterceptor;
import org.springframework.kafka.support.KafkaUtils;

import dev.modelgate.idempotency.messaging.InboundMessage;
import dev.modelgate.idempotency.messaging.InboundMessages;

/**
 * Makes the record a Kafka listener thread handles known to {@code @IdempotentListener} methods, from
 * before the listener runs until the record is done. Kafka has no message id: the key is a header or
 * an expression. Refusals go to the container unchanged: {@link KafkaListenerIdempotency} classifies
 * them for its {@code DefaultErrorHandler}.
 */
public class IdempotentRecordInterceptor implements RecordInterceptor<Object, Object> {

	@Override
	public ConsumerRecord<Object, Object> intercept(ConsumerRecord<Object, Object> record,
			Consumer<Object, Object> consumer) {
		InboundMessages.set(inbound(record));
		return record;
	}

	/** A record as {@code @IdempotentListener} reads it; its refusals go to the container unchanged. */
	static InboundMessage inbound(ConsumerRecord<?, ?> record) {
		String group = KafkaUtils.getConsumerGroupId();
		return new InboundMessage((group != null) ? group : record.topic(), (name) -> header(record, name), null,
				record.value(), record, (failure) -> {
					throw failure;
				});
	}

	@Override
	public void afterRecord(ConsumerRecord<Object, Object> record, Consumer<Object, Object> consumer) {
		InboundMessages.clear();
	}

	@Override
	public void clearThreadState(Consumer<?, ?> consumer) {
		InboundMessages.clear();
	}

	private static @Nullable String header(ConsumerRecord<?, ?> record, String name) {
		Header header = record.headers().lastHeader(name);
		return (header != null && header.value() != null) ? new String(header.value(), StandardCharsets.UTF_8) : null;
	}

}
