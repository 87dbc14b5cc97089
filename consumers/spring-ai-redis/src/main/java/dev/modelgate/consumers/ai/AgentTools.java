package dev.modelgate.consumers.ai;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.ai.tool.annotation.Tool;
import org.springframework.stereotype.Component;

import dev.modelgate.idempotency.ai.IdempotentTool;

/**
 * The agent's tools, as docs/AGENTS.md's quick start marks them: the two with an effect carry {@code @IdempotentTool}
 * beside {@code @Tool}, the one that only reads does not. Each counts how often it really ran and answers with a
 * fresh id, so a recorded result given back to the model is told apart from a second run.
 */
@Component
public class AgentTools {

	private final AtomicInteger mails = new AtomicInteger();

	private final AtomicInteger tickets = new AtomicInteger();

	private final AtomicInteger lookups = new AtomicInteger();

	private final List<String> results = new CopyOnWriteArrayList<>();

	@Tool(name = "send_email", description = "Send an e-mail")
	@IdempotentTool
	public String sendEmail(String to, String text) {
		this.mails.incrementAndGet();
		return result("sent-mail-");
	}

	@Tool(name = "create_ticket", description = "Open a support ticket")
	@IdempotentTool
	public String createTicket(String title) {
		this.tickets.incrementAndGet();
		return result("opened-ticket-");
	}

	/** Reads only: not protected, so it runs on every run of the agent. */
	@Tool(name = "lookup_order", description = "Look an order up")
	public String lookupOrder(String id) {
		this.lookups.incrementAndGet();
		return result("looked-up-order-");
	}

	private String result(String prefix) {
		String result = prefix + UUID.randomUUID().toString().replace("-", "");
		this.results.add(result);
		return result;
	}

	/** How many mails were really sent since the application started. */
	public int mails() {
		return this.mails.get();
	}

	/** How many tickets were really opened since the application started. */
	public int tickets() {
		return this.tickets.get();
	}

	/** How many times the unprotected lookup really ran since the application started. */
	public int lookups() {
		return this.lookups.get();
	}

	/** Every result a tool really returned, in order. */
	public List<String> results() {
		return List.copyOf(this.results);
	}

}
