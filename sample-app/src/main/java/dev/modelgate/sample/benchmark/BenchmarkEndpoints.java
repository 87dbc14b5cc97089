package dev.modelgate.sample.benchmark;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.sample.chat.ChatCompletionsController;

/**
 * An unannotated twin of {@code POST /v1/chat/completions}, for the load benchmark
 * ({@code benchmarks/load/run.sh}) to measure the idempotency filter against: the same handler, run
 * the same way, only without {@code @Idempotent}; and the twin with the store's two calls of a new key
 * made by hand around it, for {@code benchmarks/load/redis-floor.sh}. Present only with
 * {@code modelgate.benchmark.enabled=true}.
 */
@RestController
@ConditionalOnBooleanProperty("modelgate.benchmark.enabled")
public class BenchmarkEndpoints {

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final Duration TTL = Duration.ofSeconds(60);

	private static final StoredOutcome OUTCOME = new StoredOutcome(StoredOutcome.Kind.RESPONSE,
			"x".repeat(900).getBytes(StandardCharsets.US_ASCII));

	private final ChatCompletionsController chat;

	private final ObjectProvider<IdempotencyStore> store;

	public BenchmarkEndpoints(ChatCompletionsController chat, ObjectProvider<IdempotencyStore> store) {
		this.chat = chat;
		this.store = store;
	}

	@PostMapping(path = "/benchmark/chat/completions", consumes = MediaType.APPLICATION_JSON_VALUE)
	public Object complete(@RequestBody JsonNode body,
			@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
			HttpServletResponse response) {
		return this.chat.complete(body, authorization, response);
	}

	/**
	 * The twin between {@code begin} and {@code complete} (a 900-byte outcome) on the application's
	 * store, called directly, without the filter: what a new key's two store calls cost inside a
	 * request, the floor under the filter's own cost.
	 */
	@PostMapping(path = "/benchmark/store-calls/chat/completions", consumes = MediaType.APPLICATION_JSON_VALUE)
	public Object completeBetweenStoreCalls(@RequestBody JsonNode body,
			@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
			HttpServletResponse response) {
		IdempotencyStore store = this.store.getObject();
		String scope = (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "");
		String token = UUID.randomUUID().toString();
		if (store.begin(scope, scope, token, LEASE).outcome() != BeginResult.Outcome.ACQUIRED) {
			throw new IllegalStateException("not a new key");
		}
		Object answer = this.chat.complete(body, authorization, response);
		store.complete(scope, token, OUTCOME, TTL);
		return answer;
	}

}
