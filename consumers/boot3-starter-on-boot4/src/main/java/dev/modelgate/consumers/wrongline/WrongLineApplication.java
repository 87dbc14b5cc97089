package dev.modelgate.consumers.wrongline;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot 4 application that depends on modelgate-spring-boot3-starter by mistake.
 */
@SpringBootApplication
public class WrongLineApplication {

	public static void main(String[] args) {
		SpringApplication.run(WrongLineApplication.class, args);
	}

}
