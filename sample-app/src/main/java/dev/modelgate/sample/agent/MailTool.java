package dev.modelgate.sample.agent;

import java.util.Optional;
import java.util.UUID;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.stereotype.Component;

import dev.modelgate.idempotency.ai.IdempotentTool;
import dev.modelgate.idempotency.ai.IdempotentToolCallingManager;
import dev.modelgate.idempotency.core.OutcomeUnknownException;
import dev.modelgate.idempotency.core.Reconciliation;

/**
 * The agent's {@code send_email} tool. Sending is the side effect that must not happen twice, so the
 * tool is an {@code @IdempotentTool}: in a keyed run it runs at most once per call, and a retried run
 * gives the model the recorded message id. The mail goes out with the tool call's derived key, so when
 * the mail server's answer is lost after it accepted the mail (an unknown outcome), the retry finds the
 * mail by that key ({@link #findSent}) instead of sending it again. The {@link MailSender} decides how
 * the mail goes out: directly (the default), or through the outbox and a queue ({@code outbox} profile).
 */
@Component
public class MailTool {

	static final String NAME = "send_email";

	/** The tool context entry that simulates a mail server that accepts the mail and then times out. */
	static final String TIME_OUT_AFTER_SENDING = "dev.modelgate.sample/mail-timeout";

	private final MailSender sender;

	public MailTool(MailSender sender) {
		this.sender = sender;
	}

	/**
	 * Sends a mail once per tool call.
	 * @return the message id, which the model reports
	 */
	@Tool(name = NAME, description = "Send an e-mail")
	@IdempotentTool(unknownOn = OutcomeUnknownException.class)
	public String sendEmail(String to, String subject, String text, ToolContext context) {
		SentMail sent = this.sender.send(toolCallKey(context), new MailMessage(to, subject, text));
		if (Boolean.TRUE.equals(context.getContext().get(TIME_OUT_AFTER_SENDING))) {
			throw new OutcomeUnknownException("The mail server did not answer after the mail was sent");
		}
		return sent.messageId();
	}

	/**
	 * The result of the mail sent for {@code toolCallKey}, if any, as the tool gives it to the model (a
	 * JSON string): how a call whose outcome is unknown is reconciled.
	 */
	public Reconciliation<String> findSent(String toolCallKey) {
		Optional<String> messageId = this.sender.findByToolKey(toolCallKey).map(SentMail::messageId);
		return Reconciliation.of(messageId.map(JsonMapper.shared()::writeValueAsString));
	}

	/** Outside a keyed run (idempotency off) there is no call key; each call is then a mail of its own. */
	static String toolCallKey(ToolContext context) {
		Object key = context.getContext().get(IdempotentToolCallingManager.TOOL_CALL_KEY);
		return (key != null) ? key.toString() : UUID.randomUUID().toString();
	}

}
