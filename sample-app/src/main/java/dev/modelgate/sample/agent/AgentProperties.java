package dev.modelgate.sample.agent;

import java.net.URI;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the sample agent endpoint.
 */
@ConfigurationProperties("modelgate.sample.agent")
public class AgentProperties {

	/**
	 * Whether requests may simulate failures with "fail_after_step" (a crash after that step) and
	 * "mail_timeout" (the mail server accepts the mail but the answer is lost). Off by default: the
	 * fields are then ignored.
	 */
	private boolean faultsEnabled;

	/**
	 * Where each mail is also posted, with its tool call's key as the Idempotency-Key header: a mail
	 * service outside the gateway, whose count survives the gateway (the reliability suite's). Unset: the
	 * in-memory outbox only.
	 */
	private URI mailApi;

	/**
	 * Where each ticket is also posted, with its tool call's key as the Idempotency-Key header. Unset: the
	 * in-memory ticket desk only.
	 */
	private URI ticketApi;

	public boolean isFaultsEnabled() {
		return this.faultsEnabled;
	}

	public void setFaultsEnabled(boolean faultsEnabled) {
		this.faultsEnabled = faultsEnabled;
	}

	public URI getMailApi() {
		return this.mailApi;
	}

	public void setMailApi(URI mailApi) {
		this.mailApi = mailApi;
	}

	public URI getTicketApi() {
		return this.ticketApi;
	}

	public void setTicketApi(URI ticketApi) {
		this.ticketApi = ticketApi;
	}

}
