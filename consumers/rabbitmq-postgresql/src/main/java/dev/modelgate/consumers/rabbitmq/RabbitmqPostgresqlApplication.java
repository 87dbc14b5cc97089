package dev.modelgate.consumers.rabbitmq;

import org.springframework.amqp.core.Queue;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A minimal application built on the published starter with exactly the dependencies docs/MESSAGING.md asks for: a
 * RabbitMQ listener whose bookings and idempotency records are in one PostgreSQL database.
 */
@SpringBootApplication
public class RabbitmqPostgresqlApplication {

	public static void main(String[] args) {
		SpringApplication.run(RabbitmqPostgresqlApplication.class, args);
	}

	/** Durable, so that a message not yet acknowledged waits for the next consumer when this one dies. */
	@Bean
	Queue bookingsQueue(@Value("${consumer.queue}") String name) {
		return new Queue(name);
	}

}
