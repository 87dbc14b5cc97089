package dev.modelgate.consumers.kafka;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.stereotype.Component;

import dev.modelgate.idempotency.IdempotentListener;

/**
 * Charges once per {@code Idempotency-Key} header, however often Kafka delivers the record. Counts how often it
 * really ran, per key, in memory and in Redis (the charge itself, which the reliability suite counts across a
 * {@code kill -9}).
 */
@Component
public class Charges {

	/** The listener's id, which is also its consumer group. */
	public static final String LISTENER_ID = "charges";

	/** Where each charge is counted in Redis, per key: the effect, which outlives this process. */
	public static final String CHARGED = "consumer:kafka:charged:";

	private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

	private final StringRedisTemplate redis;

	private final Runnable afterCharge;

	public Charges(StringRedisTemplate redis, ObjectProvider<HoldAfterCharge> afterCharge) {
		this.redis = redis;
		HoldAfterCharge hold = afterCharge.getIfAvailable();
		this.afterCharge = (hold != null) ? hold::hold : () -> {
		};
	}

	@KafkaListener(id = LISTENER_ID, topics = "${consumer.topic}")
	@IdempotentListener
	public void charge(String payload, @Header("Idempotency-Key") String key) {
		this.runs.computeIfAbsent(key, (ignored) -> new AtomicInteger()).incrementAndGet();
		this.redis.opsForValue().increment(CHARGED + key);
		this.afterCharge.run();
	}

	/**
	 * How many times the listener has run for {@code key} since the application started.
	 */
	public int runs(String key) {
		AtomicInteger count = this.runs.get(key);
		return (count != null) ? count.get() : 0;
	}

}
