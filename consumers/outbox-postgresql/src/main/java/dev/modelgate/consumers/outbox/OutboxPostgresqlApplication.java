package dev.modelgate.consumers.outbox;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.client.RestClient;

import dev.modelgate.idempotency.client.DerivedIdempotencyKeyInterceptor;

/**
 * A minimal application built on the published starter with the dependencies docs/OUTBOX.md asks for: a keyed
 * signup endpoint whose rows, event publications and idempotency records are in one PostgreSQL database, and a
 * listener that sends the welcome mail through a downstream HTTP API.
 */
@SpringBootApplication
public class OutboxPostgresqlApplication {

	public static void main(String[] args) {
		SpringApplication.run(OutboxPostgresqlApplication.class, args);
	}

	/** The mail API: each call carries a key derived from the listener's run, so from the event's key. */
	@Bean
	RestClient mailApi(@Value("${consumer.mail-url}") String url) {
		return RestClient.builder().baseUrl(url).requestInterceptor(new DerivedIdempotencyKeyInterceptor()).build();
	}

}
