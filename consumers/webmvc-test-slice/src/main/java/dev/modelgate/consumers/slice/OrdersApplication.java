package dev.modelgate.consumers.slice;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A minimal Redis application whose controller the README's "Testing your application" tests in a
 * {@code @WebMvcTest} slice.
 */
@SpringBootApplication
public class OrdersApplication {

	public static void main(String[] args) {
		SpringApplication.run(OrdersApplication.class, args);
	}

}
