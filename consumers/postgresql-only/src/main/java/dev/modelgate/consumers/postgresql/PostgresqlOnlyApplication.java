package dev.modelgate.consumers.postgresql;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A minimal application built on the published starter with exactly the dependencies the README asks for.
 */
@SpringBootApplication
public class PostgresqlOnlyApplication {

	public static void main(String[] args) {
		SpringApplication.run(PostgresqlOnlyApplication.class, args);
	}

}
