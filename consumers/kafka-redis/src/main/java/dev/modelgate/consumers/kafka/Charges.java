package dev.modelgate.consumers.kafka;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.stereotype.Component;

import dev.modelgate.idempotency.IdempotentListener;

/**
 * Charges once per {@code Idempotency-Key} header, however often Kafka delivers the record. Counts how often it
 * really ran, per key.
 */
@Component
public class Charges {

	/** The listener's id, which is also its consumer group. */
	public static final String LISTENER_ID = "charges";

	private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

	@KafkaListener(id = LISTENER_ID, topics = "${consumer.topic}")
	@IdempotentListener
	public void charge(String payload, @Header("Idempotency-Key") String key) {
		this.runs.computeIfAbsent(key, (ignored) -> new AtomicInteger()).incrementAndGet();
	}

	/**
	 * How many times the listener has run for {@code key} since the application started.
	 */
	public int runs(String key) {
		AtomicInteger count = this.runs.get(key);
		return (count != null) ? count.get() : 0;
	}

}
