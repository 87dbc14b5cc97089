package dev.modelgate.consumers.security;

import java.security.Principal;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.modelgate.idempotency.Idempotent;

/** One idempotent endpoint that counts how often it really ran and says for whom. */
@RestController
public class OrderController {

	private final AtomicInteger invocations = new AtomicInteger();

	@PostMapping("/orders")
	@Idempotent
	public ResponseEntity<String> create(@RequestBody String order, Principal principal) {
		int invocation = this.invocations.incrementAndGet();
		return ResponseEntity.status(HttpStatus.CREATED)
			.body(principal.getName() + " " + invocation + " " + UUID.randomUUID());
	}

	/** How many times the handler has run since the application started. */
	public int invocations() {
		return this.invocations.get();
	}

}
