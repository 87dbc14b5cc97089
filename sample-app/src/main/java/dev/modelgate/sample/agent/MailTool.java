package dev.modelgate.sample.agent;

import java.util.Optional;

import org.springframework.stereotype.Component;

import dev.modelgate.idempotency.IdempotentOperation;
import dev.modelgate.idempotency.core.OutcomeUnknownException;

/**
 * The agent's "send_email" tool. Sending is the side effect that must not happen twice, so the tool
 * runs at most once per tool-level key: a retried run gets the recorded {@link SentMail} back. If the
 * mail server's answer is lost after it accepted the mail, the outcome is unknown, and the retry looks
 * the mail up by its key instead of sending it again. The {@link MailSender} decides how the mail goes
 * out: directly (the default), or through the outbox and a queue (the {@code outbox} profile).
 */
@Component
public class MailTool {

	private final MailSender sender;

	public MailTool(MailSender sender) {
		this.sender = sender;
	}

	/**
	 * Sends {@code message} once for {@code toolKey}.
	 * @param timeOutAfterSending simulate a mail server that accepts the mail and then times out
	 */
	@IdempotentOperation(scope = "agent.tool.send_email", key = "#toolKey", fingerprint = "#message",
			reconcile = "@mailTool.findSent(#toolKey)")
	public SentMail send(String toolKey, MailMessage message, boolean timeOutAfterSending) {
		SentMail sent = this.sender.send(toolKey, message);
		if (timeOutAfterSending) {
			throw new OutcomeUnknownException("The mail server did not answer after the mail was sent");
		}
		return sent;
	}

	/** The mail sent for {@code toolKey}, if any: how a call whose outcome is unknown is reconciled. */
	public Optional<SentMail> findSent(String toolKey) {
		return this.sender.findByToolKey(toolKey);
	}

}
