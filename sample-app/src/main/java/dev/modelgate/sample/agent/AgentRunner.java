package dev.modelgate.sample.agent;

import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Service;

import dev.modelgate.idempotency.core.DerivedKeys;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.IdempotentCall;
import dev.modelgate.idempotency.core.ResultCodec;
import dev.modelgate.idempotency.operation.jackson.JsonResultCodec;

/**
 * A small agent: it plans, mails a report, opens a ticket and answers. The two steps with side
 * effects run under tool-level keys derived from the run's id, the step and the tool, so that a whole
 * run retried after a crash replays the tool calls that completed instead of repeating them. The mail
 * tool uses {@code @IdempotentOperation}; the ticket tool calls {@link IdempotencyTemplate} directly,
 * to show both.
 */
@Service
public class AgentRunner {

	static final String SEND_EMAIL = "send_email";

	static final String CREATE_TICKET = "create_ticket";

	private final MailTool mailTool;

	private final TicketDesk ticketDesk;

	private final IdempotencyTemplate idempotency;

	private final ResultCodec<Ticket> ticketCodec;

	private final AgentProperties properties;

	public AgentRunner(MailTool mailTool, TicketDesk ticketDesk, IdempotencyTemplate idempotency,
			JsonMapper jsonMapper, AgentProperties properties) {
		this.mailTool = mailTool;
		this.ticketDesk = ticketDesk;
		this.idempotency = idempotency;
		this.ticketCodec = JsonResultCodec.of(jsonMapper, Ticket.class);
		this.properties = properties;
	}

	/**
	 * Runs the agent.
	 * @param runId the run's id, the same on every retry of the run
	 */
	public AgentRun run(String runId, AgentRunRequest request) {
		List<AgentRun.Step> steps = new ArrayList<>();

		String plan = "1. mail a report on \"" + request.task() + "\" to " + request.reportTo()
				+ " 2. open a ticket 3. answer";
		steps.add(new AgentRun.Step(1, "plan", null, plan));
		crashIfAsked(request, 1);

		String mailKey = DerivedKeys.forTool(runId, "2", SEND_EMAIL);
		MailMessage report = new MailMessage(request.reportTo(), "Agent report: " + request.task(),
				"The agent is working on: " + request.task());
		SentMail mail = this.mailTool.send(mailKey, report, faultsEnabled() && request.mailTimesOut());
		steps.add(new AgentRun.Step(2, SEND_EMAIL, mailKey, mail.messageId()));
		crashIfAsked(request, 2);

		String ticketKey = DerivedKeys.forTool(runId, "3", CREATE_TICKET);
		String title = "Follow up: " + request.task();
		Ticket ticket = this.idempotency.execute(
				IdempotentCall.of("agent.tool." + CREATE_TICKET, ticketKey, this.ticketCodec).withFingerprint(title),
				() -> this.ticketDesk.open(title));
		steps.add(new AgentRun.Step(3, CREATE_TICKET, ticketKey, ticket.id()));
		crashIfAsked(request, 3);

		steps.add(new AgentRun.Step(4, "answer", null,
				"Mailed " + request.reportTo() + " (" + mail.messageId() + ") and opened " + ticket.id() + "."));
		return new AgentRun(runId, "completed", steps);
	}

	private void crashIfAsked(AgentRunRequest request, int step) {
		if (faultsEnabled() && request.failsAfter(step)) {
			throw new SimulatedCrashException(step);
		}
	}

	private boolean faultsEnabled() {
		return this.properties.isFaultsEnabled();
	}

}
