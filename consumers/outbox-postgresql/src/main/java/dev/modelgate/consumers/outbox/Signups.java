package dev.modelgate.consumers.outbox;

import java.util.Map;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.outbox.EventKeys;

/**
 * {@code POST /signups}: writes the signup and publishes the welcome mail's event in one transaction. A retry
 * with the same key is replayed: nothing is written or published again.
 */
@RestController
public class Signups {

	private final JdbcTemplate jdbc;

	private final ApplicationEventPublisher events;

	private final Holds holds;

	public Signups(JdbcTemplate jdbc, ApplicationEventPublisher events, Holds holds) {
		this.jdbc = jdbc;
		this.events = events;
		this.holds = holds;
	}

	@PostMapping("/signups")
	@Idempotent
	@Transactional
	public Map<String, Object> signUp(@RequestBody Map<String, String> signup) {
		String email = signup.get("email");
		this.jdbc.update("INSERT INTO consumer_outbox_signups (email) VALUES (?)", email);
		this.events.publishEvent(new WelcomeMailRequested(EventKeys.derive("welcome-mail"), email));
		if (this.holds.afterCommit()) {
			TransactionSynchronizationManager.registerSynchronization(this.holds.beforeDelivery());
		}
		return Map.of("email", email, "status", "signed up");
	}

}
