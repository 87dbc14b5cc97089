package dev.modelgate.sample.agent;

import java.util.Map;
import java.util.Optional;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

/**
 * Delivers into the {@link MailOutbox} on the caller's thread, with the tool call's key as the mail's
 * idempotency key: the sample's default, which needs no database and no broker. With
 * {@code modelgate.sample.agent.mail-api} set, the mail is posted there first.
 */
@Component
@Profile("!outbox")
class DirectMailSender implements MailSender {

	private final MailOutbox outbox;

	private final EffectApi mailApi;

	DirectMailSender(MailOutbox outbox, RestClient.Builder restClientBuilder, AgentProperties properties) {
		this.outbox = outbox;
		this.mailApi = EffectApi.of(restClientBuilder, properties.getMailApi());
	}

	@Override
	public SentMail send(String toolKey, MailMessage message) {
		if (this.mailApi != null) {
			this.mailApi.post(toolKey, Map.of("to", message.to(), "subject", message.subject(), "text", message.text()));
		}
		return this.outbox.deliver(toolKey, message);
	}

	@Override
	public Optional<SentMail> findByToolKey(String toolKey) {
		return this.outbox.findByKey(toolKey);
	}

}
