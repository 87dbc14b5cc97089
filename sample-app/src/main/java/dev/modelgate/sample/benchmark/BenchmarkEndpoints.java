package dev.modelgate.sample.benchmark;

import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import dev.modelgate.sample.chat.ChatCompletionsController;

/**
 * An unannotated twin of {@code POST /v1/chat/completions}, for the load benchmark
 * ({@code benchmarks/load/run.sh}) to measure the idempotency filter against: the same handler, run
 * the same way, only without {@code @Idempotent}. Present only with
 * {@code modelgate.benchmark.enabled=true}.
 */
@RestController
@ConditionalOnBooleanProperty("modelgate.benchmark.enabled")
public class BenchmarkEndpoints {

	private final ChatCompletionsController chat;

	public BenchmarkEndpoints(ChatCompletionsController chat) {
		this.chat = chat;
	}

	@PostMapping(path = "/benchmark/chat/completions", consumes = MediaType.APPLICATION_JSON_VALUE)
	public Object complete(@RequestBody JsonNode body,
			@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
			HttpServletResponse response) {
		return this.chat.complete(body, authorization, response);
	}

}
