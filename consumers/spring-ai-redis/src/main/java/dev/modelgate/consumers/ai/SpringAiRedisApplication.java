package dev.modelgate.consumers.ai;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An agent application built on the published starter with exactly the dependencies docs/AGENTS.md asks for: the
 * starter, Spring AI's OpenAI starter and Spring Data Redis.
 */
@SpringBootApplication
public class SpringAiRedisApplication {

	public static void main(String[] args) {
		SpringApplication.run(SpringAiRedisApplication.class, args);
	}

}
