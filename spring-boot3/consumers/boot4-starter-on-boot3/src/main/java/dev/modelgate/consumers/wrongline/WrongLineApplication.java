package dev.modelgate.consumers.wrongline;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot 3.5 application that depends on modelgate-spring-boot-starter (the Spring Boot 4 line's) by
 * mistake.
 */
@SpringBootApplication
public class WrongLineApplication {

	public static void main(String[] args) {
		SpringApplication.run(WrongLineApplication.class, args);
	}

}
