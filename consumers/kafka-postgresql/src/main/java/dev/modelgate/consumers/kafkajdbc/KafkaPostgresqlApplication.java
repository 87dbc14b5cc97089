package dev.modelgate.consumers.kafkajdbc;

import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.FixedBackOff;

/**
 * A minimal application built on the published starter with exactly the dependencies docs/MESSAGING.md asks for: a
 * Kafka listener whose bookings and idempotency records are in one PostgreSQL database.
 */
@SpringBootApplication
public class KafkaPostgresqlApplication {

	public static void main(String[] args) {
		SpringApplication.run(KafkaPostgresqlApplication.class, args);
	}

	/** Created by Spring Boot's {@code KafkaAdmin} when it is missing. */
	@Bean
	NewTopic bookingsTopic(@Value("${consumer.topic}") String name) {
		return new NewTopic(name, 1, (short) 1);
	}

	/**
	 * As docs/MESSAGING.md asks: a record whose key is in progress elsewhere is tried again every second, for longer
	 * than a lease lives (Spring Boot puts this bean on its container factory).
	 */
	@Bean
	DefaultErrorHandler errorHandler() {
		return new DefaultErrorHandler(new FixedBackOff(1000, 120));
	}

}
