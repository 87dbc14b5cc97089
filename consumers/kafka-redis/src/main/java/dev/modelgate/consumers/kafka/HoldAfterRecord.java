package dev.modelgate.consumers.kafka;

import java.util.concurrent.CountDownLatch;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.kafka.listener.RecordInterceptor;
import org.springframework.stereotype.Component;

/**
 * For the reliability suite only ({@code consumer.hold-after-record=true}): after the listener returned (and its
 * record completed in the store), the container's thread says so and never goes on, so the offset is never committed
 * until the suite kills the process ({@code kill -9}) inside that window. Spring Boot gives its container factory this
 * {@code RecordInterceptor} bean; the idempotency one runs beside it.
 */
@Component
@ConditionalOnBooleanProperty("consumer.hold-after-record")
class HoldAfterRecord implements RecordInterceptor<Object, Object> {

	/** The line the suite waits for before it kills the process. */
	static final String HOLDING = "Record completed; holding the listener thread before the offset commit";

	private static final Logger logger = LoggerFactory.getLogger(HoldAfterRecord.class);

	private final CountDownLatch never = new CountDownLatch(1);

	@Override
	public ConsumerRecord<Object, Object> intercept(ConsumerRecord<Object, Object> record,
			Consumer<Object, Object> consumer) {
		return record;
	}

	@Override
	public void success(ConsumerRecord<Object, Object> record, Consumer<Object, Object> consumer) {
		logger.info(HOLDING);
		try {
			this.never.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
