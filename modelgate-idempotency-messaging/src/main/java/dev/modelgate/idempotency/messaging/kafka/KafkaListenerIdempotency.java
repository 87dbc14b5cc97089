package dev.modelgate.idempotency.messaging.kafka;

import org.springframework.beans.DirectFieldAccessor;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.kafka.config.AbstractKafkaListenerContainerFactory;
import org.springframework.kafka.listener.BatchInterceptor;
import org.springframework.kafka.listener.CompositeBatchInterceptor;
import org.springframework.kafka.listener.CompositeRecordInterceptor;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.RecordInterceptor;

import dev.modelgate.idempotency.messaging.ListenerRefusals;

/**
 * Gives the application's Kafka listener container factories the {@link IdempotentRecordInterceptor}
 * and the {@link IdempotentBatchInterceptor} (after the interceptors they already have, which keep
 * running), and classifies the final refusals
 * of {@code @IdempotentListener} as not retryable in the application's {@link DefaultErrorHandler}
 * beans, so that its recoverer (a {@code DeadLetterPublishingRecoverer}) gets them at once, the
 * exception's message in the dead letter's {@code kafka_dlt-exception-message} header. A duplicate
 * in progress stays retryable: the handler's back-off decides when it is tried again, and how often.
 */
public class KafkaListenerIdempotency implements BeanPostProcessor {

	@Override
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof AbstractKafkaListenerContainerFactory factory) {
			// Spring Kafka 3.3 (Spring Boot 3.5) has no getters for them, 4.0 has; the fields are the same in both.
			RecordInterceptor existing = (RecordInterceptor) new DirectFieldAccessor(factory)
				.getPropertyValue("recordInterceptor");
			IdempotentRecordInterceptor ours = new IdempotentRecordInterceptor();
			factory.setRecordInterceptor((existing != null) ? new CompositeRecordInterceptor(existing, ours) : ours);
			BatchInterceptor existingBatch = (BatchInterceptor) new DirectFieldAccessor(factory)
				.getPropertyValue("batchInterceptor");
			IdempotentBatchInterceptor ourBatch = new IdempotentBatchInterceptor();
			factory.setBatchInterceptor(
					(existingBatch != null) ? new CompositeBatchInterceptor(existingBatch, ourBatch) : ourBatch);
		}
		if (bean instanceof DefaultErrorHandler handler) {
			classify(handler);
		}
		return bean;
	}

	/**
	 * Classifies the final refusals of idempotent listeners as not retryable, for an error handler that
	 * is not a bean.
	 * @param handler the container's error handler
	 * @return the handler
	 */
	@SuppressWarnings("unchecked")
	public static DefaultErrorHandler classify(DefaultErrorHandler handler) {
		handler.addNotRetryableExceptions(ListenerRefusals.FINAL.toArray(Class[]::new));
		return handler;
	}

}
