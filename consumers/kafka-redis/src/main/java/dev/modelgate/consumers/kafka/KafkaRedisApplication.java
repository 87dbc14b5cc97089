package dev.modelgate.consumers.kafka;

import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A minimal application built on the published starter with exactly the dependencies docs/MESSAGING.md asks for: a
 * Kafka listener whose idempotency records are in Redis.
 */
@SpringBootApplication
public class KafkaRedisApplication {

	public static void main(String[] args) {
		SpringApplication.run(KafkaRedisApplication.class, args);
	}

	/** Created by Spring Boot's {@code KafkaAdmin} when it is missing. */
	@Bean
	NewTopic chargesTopic(@Value("${consumer.topic}") String name) {
		return new NewTopic(name, 1, (short) 1);
	}

}
