package dev.modelgate.sample.agent;

import java.util.Optional;

/**
 * How the mail tool gets a mail out: straight into the {@link MailOutbox} ({@link DirectMailSender}, the
 * default), or through the transactional outbox and RabbitMQ (the {@code outbox} profile's
 * {@code QueuedMailSender}). The tool's idempotency is the same for both.
 */
public interface MailSender {

	/**
	 * Sends {@code message} for the tool call {@code toolKey}, or hands it to something that will.
	 * @return the mail sent, or the request for it
	 */
	SentMail send(String toolKey, MailMessage message);

	/** The mail sent (or requested) for the tool call {@code toolKey}, if any: how the tool reconciles a lost answer. */
	Optional<SentMail> findByToolKey(String toolKey);

}
