package dev.modelgate.consumers.kafkajdbc;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import dev.modelgate.idempotency.IdempotentListener;

/**
 * Books each record as a row, in a database transaction on the database of the idempotency records: the
 * transactional inbox marks the record's key applied in the same transaction, so a redelivery after the commit (a
 * consumer that died before committing its offset) is acknowledged without booking again.
 */
@Component
public class Bookings {

	private final JdbcTemplate jdbc;

	public Bookings(JdbcTemplate jdbc) {
		this.jdbc = jdbc;
	}

	@KafkaListener(id = "bookings", topics = "${consumer.topic}")
	@IdempotentListener
	@Transactional
	public void book(String payload, @Header("Idempotency-Key") String key) {
		this.jdbc.update("INSERT INTO consumer_kafka_bookings (message_key, payload) VALUES (?, ?)", key, payload);
	}

}
