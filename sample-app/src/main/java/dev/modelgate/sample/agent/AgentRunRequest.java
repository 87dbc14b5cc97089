package dev.modelgate.sample.agent;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A request to run the agent.
 *
 * @param task what the agent should do
 * @param reportTo where the agent mails its report
 * @param failAfterStep simulate a crash after this step (only with faults enabled): 1 after the mail,
 * 2 after the ticket, 3 after the answer
 * @param mailTimeout simulate a mail server that accepts the mail and then times out (only with
 * faults enabled)
 */
public record AgentRunRequest(String task, @JsonProperty("report_to") String reportTo, @JsonProperty("fail_after_step") Integer failAfterStep,
		@JsonProperty("mail_timeout") Boolean mailTimeout) {

	void validate() {
		if (this.task == null || this.task.isBlank()) {
			throw new InvalidAgentRunException("invalid_task", "'task' must be a non-empty string.");
		}
		if (this.reportTo == null || !this.reportTo.contains("@")) {
			throw new InvalidAgentRunException("invalid_report_to", "'report_to' must be an e-mail address.");
		}
	}

	boolean mailTimesOut() {
		return Boolean.TRUE.equals(this.mailTimeout);
	}

}
