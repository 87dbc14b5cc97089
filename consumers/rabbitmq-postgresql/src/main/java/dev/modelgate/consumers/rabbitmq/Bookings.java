package dev.modelgate.consumers.rabbitmq;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import dev.modelgate.idempotency.IdempotentListener;

/**
 * Books each message as a row, in a database transaction on the database of the idempotency records: the
 * transactional inbox marks the message's record applied in the same transaction, so a redelivery after the commit
 * is acknowledged without booking again. Counts how often it really ran, per key.
 */
@Component
public class Bookings {

	private final JdbcTemplate jdbc;

	private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

	public Bookings(JdbcTemplate jdbc) {
		this.jdbc = jdbc;
	}

	@RabbitListener(queues = "${consumer.queue}")
	@IdempotentListener
	@Transactional
	public void book(String payload, @Header("Idempotency-Key") String key) {
		this.runs.computeIfAbsent(key, (ignored) -> new AtomicInteger()).incrementAndGet();
		this.jdbc.update("INSERT INTO consumer_rabbitmq_bookings (message_key, payload) VALUES (?, ?)", key, payload);
	}

	/**
	 * How many times the listener has run for {@code key} since the application started.
	 */
	public int runs(String key) {
		AtomicInteger count = this.runs.get(key);
		return (count != null) ? count.get() : 0;
	}

}
