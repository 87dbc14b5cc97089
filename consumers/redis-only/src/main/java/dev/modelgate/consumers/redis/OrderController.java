package dev.modelgate.consumers.redis;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.modelgate.idempotency.Idempotent;

/**
 * One idempotent endpoint that counts how often it really ran. Each answer carries a fresh id, so a replay is
 * told apart from a second run by its bytes as well as by the count.
 */
@RestController
public class OrderController {

	private final AtomicInteger invocations = new AtomicInteger();

	@PostMapping("/orders")
	@Idempotent
	public ResponseEntity<Order> create(@RequestBody Map<String, Object> request) {
		int invocation = this.invocations.incrementAndGet();
		return ResponseEntity.status(HttpStatus.CREATED)
			.body(new Order(UUID.randomUUID().toString(), invocation, request));
	}

	/**
	 * How many times the handler has run since the application started.
	 */
	public int invocations() {
		return this.invocations.get();
	}

	public record Order(String id, int invocation, Map<String, Object> request) {
	}

}
