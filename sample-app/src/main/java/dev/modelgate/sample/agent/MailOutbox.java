package dev.modelgate.sample.agent;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.stereotype.Component;

/**
 * The mail sink of the sample: an in-memory outbox standing in for a mail service. It accepts every
 * mail it is given, duplicates included, so that what it holds shows what the agent really sent; it
 * keeps the idempotency key each mail was sent with, so that the agent can ask whether a mail whose
 * sending timed out arrived.
 */
@Component
public class MailOutbox {

	private final List<SentMail> sent = new CopyOnWriteArrayList<>();

	/** Accepts a mail and answers its message id. */
	public SentMail deliver(String idempotencyKey, MailMessage message) {
		SentMail mail = new SentMail("msg_" + UUID.randomUUID().toString().replace("-", ""), idempotencyKey, message);
		this.sent.add(mail);
		return mail;
	}

	/** The first mail sent with this key, if any: how the agent reconciles a send that timed out. */
	public Optional<SentMail> findByKey(String idempotencyKey) {
		return this.sent.stream().filter((mail) -> mail.idempotencyKey().equals(idempotencyKey)).findFirst();
	}

	/** Every mail accepted, in order. */
	public List<SentMail> sent() {
		return List.copyOf(this.sent);
	}

}
