package dev.modelgate.idempotency.ai;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.annotation.Tool;

/**
 * The agent's tools. Each counts how often it really ran and answers something new each time, so a
 * replayed result can be told from a second run.
 */
public class AgentTools {

	private final Map<String, AtomicInteger> mailsTo = new ConcurrentHashMap<>();

	private final AtomicInteger sequence = new AtomicInteger();

	final AtomicInteger tickets = new AtomicInteger();

	final AtomicInteger lookups = new AtomicInteger();

	/** The tool call keys create_ticket was given, in order. */
	final List<Object> ticketKeys = new CopyOnWriteArrayList<>();

	/** Runs inside send_email before it sends, once per real run; a test may block or fail it. */
	volatile Runnable beforeSending = () -> {
	};

	@Tool(name = "send_email", description = "Send an e-mail")
	@IdempotentTool
	public String sendEmail(String to, String text) {
		this.beforeSending.run();
		this.mailsTo.computeIfAbsent(to, (recipient) -> new AtomicInteger()).incrementAndGet();
		return "mail-" + this.sequence.incrementAndGet() + "-to-" + to;
	}

	@Tool(name = "create_ticket", description = "Open a support ticket")
	@IdempotentTool(onArgumentMismatch = ArgumentMismatch.REFUSE)
	public String createTicket(String title, ToolContext toolContext) {
		this.ticketKeys.add(toolContext.getContext().get(IdempotentToolCallingManager.TOOL_CALL_KEY));
		this.tickets.incrementAndGet();
		return "ticket-" + this.sequence.incrementAndGet() + ":" + title;
	}

	/** Reads only: not protected, it runs on every run. */
	@Tool(name = "lookup_order", description = "Look an order up")
	public String lookupOrder(String id) {
		this.lookups.incrementAndGet();
		return "order-" + id + "-open";
	}

	int mailsTo(String recipient) {
		AtomicInteger count = this.mailsTo.get(recipient);
		return (count != null) ? count.get() : 0;
	}

}
