package dev.modelgate.sample.benchmark;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The load benchmark's unannotated twin runs the same handler as the chat endpoint, without
 * idempotency: the same key twice runs it twice, where the chat endpoint replays. The store-calls
 * twin makes a new key's two store calls itself around the handler.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "modelgate.benchmark.enabled=true")
class BenchmarkEndpointsTests {

	private static final String BODY = "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@LocalServerPort
	int port;

	@Autowired
	InMemoryIdempotencyStore store;

	@Test
	void twinRunsTheHandlerForEveryRequestWhereTheChatEndpointReplays() throws Exception {
		HttpResponse<String> twinFirst = post("/benchmark/chat/completions", "twin-key");
		HttpResponse<String> twinSecond = post("/benchmark/chat/completions", "twin-key");
		HttpResponse<String> chatFirst = post("/v1/chat/completions", "chat-key");
		HttpResponse<String> chatSecond = post("/v1/chat/completions", "chat-key");

		assertThat(twinFirst.statusCode()).isEqualTo(200);
		assertThat(twinSecond.statusCode()).isEqualTo(200);
		assertThat(twinSecond.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(id(twinSecond)).isNotEqualTo(id(twinFirst));
		assertThat(chatSecond.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(id(chatSecond)).isEqualTo(id(chatFirst));
	}

	@Test
	void storeCallsEndpointLeavesOneCompletedRecordPerRequest() throws Exception {
		long before = this.store.size();

		HttpResponse<String> first = post("/benchmark/store-calls/chat/completions", "ignored-key");
		HttpResponse<String> second = post("/benchmark/store-calls/chat/completions", "ignored-key");

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(second.statusCode()).isEqualTo(200);
		assertThat(id(second)).isNotEqualTo(id(first));
		assertThat(this.store.size()).isEqualTo(before + 2);
	}

	private HttpResponse<String> post(String path, String key) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer sk-test")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString(BODY))
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private static String id(HttpResponse<String> response) {
		return JsonMapper.shared().readTree(response.body()).path("id").asString();
	}

}
