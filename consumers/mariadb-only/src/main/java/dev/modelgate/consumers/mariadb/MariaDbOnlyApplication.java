package dev.modelgate.consumers.mariadb;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A minimal application built on the published starter with exactly the dependencies the README asks for,
 * on MariaDB.
 */
@SpringBootApplication
public class MariaDbOnlyApplication {

	public static void main(String[] args) {
		SpringApplication.run(MariaDbOnlyApplication.class, args);
	}

}
