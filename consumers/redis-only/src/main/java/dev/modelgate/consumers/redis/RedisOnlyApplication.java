package dev.modelgate.consumers.redis;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A minimal application built on the published starter with exactly the dependencies the README asks for.
 */
@SpringBootApplication
public class RedisOnlyApplication {

	public static void main(String[] args) {
		SpringApplication.run(RedisOnlyApplication.class, args);
	}

}
