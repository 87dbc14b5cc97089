package dev.modelgate.consumers.mcp;

import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.ai.tool.annotation.Tool;
import org.springframework.stereotype.Component;

/** A tool with an effect, counted: each real run is a mail sent. */
@Component
public class MailTools {

	private final AtomicInteger sent = new AtomicInteger();

	@Tool(name = "send_email", description = "Send an e-mail")
	public String sendEmail(String to, String text) {
		return "mail-" + this.sent.incrementAndGet() + "-to-" + to;
	}

	/** @return how many mails were really sent */
	public int sent() {
		return this.sent.get();
	}

}
