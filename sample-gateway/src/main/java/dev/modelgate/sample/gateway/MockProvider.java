package dev.modelgate.sample.gateway;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.json.JsonParser;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.boot.json.JsonWriter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/**
 * The built-in provider the chat route forwards to when no base URL is set, so that the gateway runs
 * offline: it echoes the last user message as an OpenAI chat completion, whole or as a stream of
 * chunks ending with {@code [DONE]}. It reads and writes JSON with Spring Boot's own parser and writer,
 * so that the same source runs on Spring Boot 3.5 (Jackson 2) and 4 (Jackson 3).
 */
@Configuration(proxyBeanMethods = false)
class MockProvider {

	/** Where the route forwards to when no upstream is configured. */
	static final String PATH = "/mock/v1/chat/completions";

	private static final JsonParser PARSER = JsonParserFactory.getJsonParser();

	private static final JsonWriter<Object> JSON = JsonWriter.standard();

	@Bean
	RouterFunction<ServerResponse> mockChatCompletions() {
		return route().POST(PATH, MockProvider::complete).build();
	}

	private static Mono<ServerResponse> complete(ServerRequest request) {
		return request.bodyToMono(String.class).defaultIfEmpty("{}").flatMap((body) -> {
			Map<String, Object> chat = PARSER.parseMap(body);
			String model = (chat.get("model") instanceof String name) ? name : "gpt-4o-mini";
			String answer = "Echo: " + lastUserMessage(chat);
			// Not UUID.randomUUID(): its SecureRandom may read /dev/urandom, on an event-loop thread.
			String id = "chatcmpl-mock-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
			long created = System.currentTimeMillis() / 1000;
			if (Boolean.TRUE.equals(chat.get("stream"))) {
				return ServerResponse.ok().contentType(MediaType.TEXT_EVENT_STREAM)
					.body(chunks(id, created, model, answer), ServerSentEvent.class);
			}
			return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(completion(id, created, model, answer));
		});
	}

	/**
	 * {@return the answer to a chat request that does not ask for a stream, as JSON}
	 * @param body the chat request's JSON
	 */
	static String completion(String body) {
		Map<String, Object> chat = PARSER.parseMap(body);
		String model = (chat.get("model") instanceof String name) ? name : "gpt-4o-mini";
		return completion("chatcmpl-mock-" + Long.toHexString(ThreadLocalRandom.current().nextLong()),
				System.currentTimeMillis() / 1000, model, "Echo: " + lastUserMessage(chat));
	}

	private static String completion(String id, long created, String model, String answer) {
		Map<String, Object> completion = Map.of("id", id, "object", "chat.completion", "created", created, "model",
				model, "choices", List.of(Map.of("index", 0, "finish_reason", "stop", "message",
						Map.of("role", "assistant", "content", answer))),
				"usage", Map.of("prompt_tokens", 5, "completion_tokens", 5, "total_tokens", 10));
		return JSON.writeToString(completion);
	}

	private static String lastUserMessage(Map<String, Object> chat) {
		String content = "";
		if (chat.get("messages") instanceof List<?> messages) {
			for (Object message : messages) {
				if (message instanceof Map<?, ?> fields && "user".equals(fields.get("role"))
						&& fields.get("content") instanceof String text) {
					content = text;
				}
			}
		}
		return content;
	}

	private static Flux<ServerSentEvent<String>> chunks(String id, long created, String model, String answer) {
		Flux<Map<String, Object>> deltas = Flux.concat(Flux.just(Map.of("role", "assistant", "content", "")),
				Flux.fromArray(answer.split("(?<= )")).map((word) -> Map.<String, Object>of("content", word)));
		Flux<String> data = deltas
			.map((delta) -> chunk(id, created, model, Map.of("index", 0, "delta", delta)))
			.concatWith(Mono.fromSupplier(() -> chunk(id, created, model,
					Map.of("index", 0, "delta", Map.of(), "finish_reason", "stop"))))
			.concatWith(Mono.just("[DONE]"));
		return data.delayElements(Duration.ofMillis(20)).map((line) -> ServerSentEvent.builder(line).build());
	}

	private static String chunk(String id, long created, String model, Map<String, Object> choice) {
		return JSON.writeToString(Map.of("id", id, "object", "chat.completion.chunk", "created", created,
				"model", model, "choices", List.of(choice)));
	}

}
