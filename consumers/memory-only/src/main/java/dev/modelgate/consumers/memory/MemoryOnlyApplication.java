package dev.modelgate.consumers.memory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A minimal application built on the published starter with exactly the dependencies the README asks for.
 */
@SpringBootApplication
public class MemoryOnlyApplication {

	public static void main(String[] args) {
		SpringApplication.run(MemoryOnlyApplication.class, args);
	}

}
