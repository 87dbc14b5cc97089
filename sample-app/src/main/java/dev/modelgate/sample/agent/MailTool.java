package dev.modelgate.sample.agent;

import org.springframework.stereotype.Component;

import dev.modelgate.idempotency.IdempotentOperation;
import dev.modelgate.idempotency.core.OutcomeUnknownException;

/**
 * The agent's "send_email" tool. Sending is the side effect that must not happen twice, so the tool
 * runs at most once per tool-level key: a retried run gets the recorded {@link SentMail} back. If the
 * mail server's answer is lost after it accepted the mail, the outcome is unknown, and the retry looks
 * the mail up in the outbox by its key instead of sending it again.
 */
@Component
public class MailTool {

	private final MailOutbox outbox;

	public MailTool(MailOutbox outbox) {
		this.outbox = outbox;
	}

	/**
	 * Sends {@code message} once for {@code toolKey}, which is also passed to the mail service as its
	 * idempotency key.
	 * @param timeOutAfterSending simulate a mail server that accepts the mail and then times out
	 */
	@IdempotentOperation(scope = "agent.tool.send_email", key = "#toolKey", fingerprint = "#message",
			reconcile = "@mailOutbox.findByKey(#toolKey)")
	public SentMail send(String toolKey, MailMessage message, boolean timeOutAfterSending) {
		SentMail sent = this.outbox.deliver(toolKey, message);
		if (timeOutAfterSending) {
			throw new OutcomeUnknownException("The mail server did not answer after the mail was sent");
		}
		return sent;
	}

}
