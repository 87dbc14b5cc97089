package dev.modelgate.consumers.gateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A gateway whose only route (declared in its configuration) carries the {@code Idempotency} filter.
 */
@SpringBootApplication
public class GatewayConsumerApplication {

	public static void main(String[] args) {
		SpringApplication.run(GatewayConsumerApplication.class, args);
	}

}
