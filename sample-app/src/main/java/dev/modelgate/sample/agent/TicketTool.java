package dev.modelgate.sample.agent;

import org.springframework.ai.tool.annotation.Tool;
import org.springframework.stereotype.Component;

import dev.modelgate.idempotency.ai.IdempotentTool;

/**
 * The agent's {@code create_ticket} tool: opens a ticket on the {@link TicketDesk}, at most once per tool
 * call of a keyed run.
 */
@Component
public class TicketTool {

	static final String NAME = "create_ticket";

	private final TicketDesk desk;

	public TicketTool(TicketDesk desk) {
		this.desk = desk;
	}

	/** @return the ticket's id, which the model reports */
	@Tool(name = NAME, description = "Open a support ticket")
	@IdempotentTool
	public String createTicket(String title) {
		return this.desk.open(title).id();
	}

}
