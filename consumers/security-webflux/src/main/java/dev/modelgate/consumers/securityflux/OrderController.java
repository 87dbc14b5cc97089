package dev.modelgate.consumers.securityflux;

import java.security.Principal;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.modelgate.idempotency.Idempotent;

/** One idempotent reactive endpoint that counts how often it really ran and says for whom. */
@RestController
public class OrderController {

	private final AtomicInteger invocations = new AtomicInteger();

	@PostMapping("/orders")
	@Idempotent
	public Mono<ResponseEntity<String>> create(@RequestBody String order, Mono<Principal> principal) {
		return principal.map((user) -> {
			int invocation = this.invocations.incrementAndGet();
			return ResponseEntity.status(HttpStatus.CREATED).body(user.getName() + " " + invocation + " " + UUID.randomUUID());
		});
	}

	/** How many times the handler has run since the application started. */
	public int invocations() {
		return this.invocations.get();
	}

}
