package dev.modelgate.consumers.outbox;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

import dev.modelgate.idempotency.outbox.IdempotentEventListener;

/**
 * Sends the welcome mail (a call to the mail API, which receives a derived {@code Idempotency-Key}) and records
 * it as a row, in the listener's transaction: at most once per event key, however often the publication is
 * delivered.
 */
@Component
public class Mailer {

	private final RestClient mailApi;

	private final JdbcTemplate jdbc;

	private final Holds holds;

	public Mailer(RestClient mailApi, JdbcTemplate jdbc, Holds holds) {
		this.mailApi = mailApi;
		this.jdbc = jdbc;
		this.holds = holds;
	}

	@ApplicationModuleListener
	@IdempotentEventListener
	public void send(WelcomeMailRequested event) {
		this.mailApi.post().uri("/mails").body("welcome " + event.email()).retrieve().toBodilessEntity();
		this.holds.afterMail();
		this.jdbc.update("INSERT INTO consumer_outbox_mails (message_key) VALUES (?)", event.idempotencyKey());
	}

}
