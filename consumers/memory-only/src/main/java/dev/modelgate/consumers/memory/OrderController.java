package dev.modelgate.consumers.memory;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.modelgate.idempotency.Idempotent;

/**
 * The README's "Five minutes" handler, line for line (DocumentationTests checks it), and a count of how
 * often it really ran. Each answer carries a fresh id, so a replay is told apart from a second run by its
 * bytes as well as by the count.
 */
@RestController
public class OrderController {

	private final AtomicInteger invocations = new AtomicInteger();

	@PostMapping("/orders")
	@Idempotent(ttl = "1h") // this endpoint; modelgate.idempotency.ttl sets the others
	public Map<String, Object> create(@RequestBody Map<String, Object> order) {
		this.invocations.incrementAndGet();
		return Map.of("id", UUID.randomUUID().toString(), "order", order);
	}

	/**
	 * How many times the handler has run since the application started.
	 */
	public int invocations() {
		return this.invocations.get();
	}

}
