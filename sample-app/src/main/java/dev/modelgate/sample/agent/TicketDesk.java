package dev.modelgate.sample.agent;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.stereotype.Component;

/**
 * An in-memory ticket system, the agent's second tool with a side effect. Like the outbox it accepts
 * duplicates, so its tickets show what the agent really did.
 */
@Component
public class TicketDesk {

	private final AtomicInteger numbers = new AtomicInteger(1000);

	private final List<Ticket> tickets = new CopyOnWriteArrayList<>();

	public Ticket open(String title) {
		Ticket ticket = new Ticket("TCK-" + this.numbers.incrementAndGet(), title);
		this.tickets.add(ticket);
		return ticket;
	}

	public List<Ticket> tickets() {
		return List.copyOf(this.tickets);
	}

}
