package dev.modelgate.sample.outbox;

import java.util.Optional;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Profile;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import dev.modelgate.idempotency.outbox.EventKeys;
import dev.modelgate.sample.agent.MailMessage;
import dev.modelgate.sample.agent.MailSender;
import dev.modelgate.sample.agent.SentMail;

/**
 * The {@code outbox} profile's mail sender: it does not deliver, it records the request and publishes
 * {@link MailRequested} in one transaction, which also stores the event's publication (Spring Modulith's
 * JDBC registry, on the database of the idempotency records). After the commit the event is
 * externalized to RabbitMQ, and the {@link MailConsumer} delivers it. Runs inside the mail tool's
 * {@code @IdempotentOperation}, whose scope the event's key is derived from.
 */
@Component
@Profile("outbox")
class QueuedMailSender implements MailSender {

	/** The one event of a mail tool call. */
	static final String EVENT_NAME = "mail";

	private final JdbcTemplate jdbc;

	private final ApplicationEventPublisher events;

	QueuedMailSender(JdbcTemplate jdbc, ApplicationEventPublisher events) {
		this.jdbc = jdbc;
		this.events = events;
	}

	@Override
	@Transactional
	public SentMail send(String toolKey, MailMessage message) {
		String eventKey = EventKeys.derive(EVENT_NAME);
		int inserted = this.jdbc.update("INSERT INTO agent_mail_requests (tool_key, event_key, recipient, subject, body) "
				+ "VALUES (?, ?, ?, ?, ?) ON CONFLICT (tool_key) DO NOTHING", toolKey, eventKey, message.to(),
				message.subject(), message.text());
		if (inserted == 0) {
			// A re-run of a tool call whose transaction committed (its record was not completed): the
			// request and its event's publication are already stored together.
			return findByToolKey(toolKey).orElseThrow();
		}
		this.events.publishEvent(new MailRequested(eventKey, message));
		return queued(eventKey, message);
	}

	@Override
	public Optional<SentMail> findByToolKey(String toolKey) {
		return this.jdbc
			.query("SELECT event_key, recipient, subject, body FROM agent_mail_requests WHERE tool_key = ?",
					(row, number) -> queued(row.getString(1),
							new MailMessage(row.getString(2), row.getString(3), row.getString(4))),
					toolKey)
			.stream()
			.findFirst();
	}

	/** The queued mail has no message id of the mail service yet; its id says it is queued, under which key. */
	private static SentMail queued(String eventKey, MailMessage message) {
		return new SentMail("queued_" + eventKey, eventKey, message);
	}

}
