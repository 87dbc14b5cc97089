package dev.modelgate.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * An OpenAI-compatible chat-completions gateway that shows the ModelGate idempotency starter in use:
 * {@code POST /v1/chat/completions} honours {@code Idempotency-Key}, forwards to an upstream provider
 * (or a built-in mock), and caches deterministic answers.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class SampleApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}
