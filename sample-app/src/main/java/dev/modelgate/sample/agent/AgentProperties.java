package dev.modelgate.sample.agent;

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

	public boolean isFaultsEnabled() {
		return this.faultsEnabled;
	}

	public void setFaultsEnabled(boolean faultsEnabled) {
		this.faultsEnabled = faultsEnabled;
	}

}
