package dev.modelgate.sample.agent;

import java.util.Optional;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * Delivers into the {@link MailOutbox} on the caller's thread, with the tool call's key as the mail's
 * idempotency key: the sample's default, which needs no database and no broker.
 */
@Component
@Profile("!outbox")
class DirectMailSender implements MailSender {

	private final MailOutbox outbox;

	DirectMailSender(MailOutbox outbox) {
		this.outbox = outbox;
	}

	@Override
	public SentMail send(String toolKey, MailMessage message) {
		return this.outbox.deliver(toolKey, message);
	}

	@Override
	public Optional<SentMail> findByToolKey(String toolKey) {
		return this.outbox.findByKey(toolKey);
	}

}
