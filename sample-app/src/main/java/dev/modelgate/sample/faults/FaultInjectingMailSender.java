package dev.modelgate.sample.faults;

import java.util.Optional;

import dev.modelgate.sample.agent.MailMessage;
import dev.modelgate.sample.agent.MailSender;
import dev.modelgate.sample.agent.SentMail;

/**
 * Wraps the agent's mail sender so that a run can stop once the mail went out, while the tool call's
 * result is not recorded yet.
 */
final class FaultInjectingMailSender implements MailSender {

	private final MailSender delegate;

	FaultInjectingMailSender(MailSender delegate) {
		this.delegate = delegate;
	}

	@Override
	public SentMail send(String toolKey, MailMessage message) {
		SentMail sent = this.delegate.send(toolKey, message);
		RequestedFault.pauseIfRequested(FaultPoint.AFTER_TOOL_EFFECT);
		return sent;
	}

	@Override
	public Optional<SentMail> findByToolKey(String toolKey) {
		return this.delegate.findByToolKey(toolKey);
	}

}
