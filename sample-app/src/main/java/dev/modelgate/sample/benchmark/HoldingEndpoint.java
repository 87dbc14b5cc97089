package dev.modelgate.sample.benchmark;

import java.time.Duration;

import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.sample.chat.ChatCompletionsController;

/**
 * An {@code @Idempotent} chat endpoint that holds its key for {@code modelgate.benchmark.hold} before
 * answering, so that the load benchmark can send duplicates while the first request is still in
 * progress and count what a rejected duplicate costs the store. Present only when that property is
 * set, so that it does not add a mapping to the throughput runs.
 */
@RestController
@ConditionalOnProperty("modelgate.benchmark.hold")
public class HoldingEndpoint {

	private final ChatCompletionsController chat;

	private final Duration hold;

	public HoldingEndpoint(ChatCompletionsController chat, @Value("${modelgate.benchmark.hold}") Duration hold) {
		this.chat = chat;
		this.hold = hold;
	}

	@Idempotent
	@PostMapping(path = "/benchmark/held/chat/completions", consumes = MediaType.APPLICATION_JSON_VALUE)
	public Object complete(@RequestBody JsonNode body,
			@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
			HttpServletResponse response)
			throws InterruptedException {
		Thread.sleep(this.hold.toMillis());
		return this.chat.complete(body, authorization, response);
	}

}
