package dev.modelgate.sample.agent;

import java.util.Map;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

import dev.modelgate.idempotency.ai.IdempotentTool;

/**
 * The agent's {@code create_ticket} tool: opens a ticket on the {@link TicketDesk}, at most once per tool
 * call of a keyed run. With {@code modelgate.sample.agent.ticket-api} set, the ticket is posted there
 * first.
 */
@Component
public class TicketTool {

	static final String NAME = "create_ticket";

	private final TicketDesk desk;

	private final EffectApi ticketApi;

	public TicketTool(TicketDesk desk, RestClient.Builder restClientBuilder, AgentProperties properties) {
		this.desk = desk;
		this.ticketApi = EffectApi.of(restClientBuilder, properties.getTicketApi());
	}

	/** @return the ticket's id, which the model reports */
	@Tool(name = NAME, description = "Open a support ticket")
	@IdempotentTool
	public String createTicket(String title, ToolContext context) {
		if (this.ticketApi != null) {
			this.ticketApi.post(MailTool.toolCallKey(context), Map.of("title", title));
		}
		return this.desk.open(title).id();
	}

}
