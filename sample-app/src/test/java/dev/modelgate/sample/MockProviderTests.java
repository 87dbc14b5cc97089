package dev.modelgate.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static dev.modelgate.sample.GatewayClient.chatRequest;
import static dev.modelgate.sample.GatewayClient.header;
import static dev.modelgate.sample.GatewayClient.json;
import static dev.modelgate.sample.GatewayClient.newKey;
import static dev.modelgate.sample.GatewayClient.promptRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway as it starts from the README: no provider configured, no database, no Redis.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class MockProviderTests {

	@LocalServerPort
	int port;

	GatewayClient gateway;

	@BeforeEach
	void connect() {
		this.gateway = new GatewayClient(this.port);
	}

	@Test
	void mockProviderAnswersOfflineWithAnOpenAiChatCompletion() {
		HttpResponse<byte[]> response = this.gateway.chat(promptRequest("Hello mock"));

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(header(response, "Content-Type")).startsWith("application/json");
		JsonNode completion = json(response);
		assertThat(completion.path("id").asString()).startsWith("chatcmpl-");
		assertThat(completion.path("object").asString()).isEqualTo("chat.completion");
		assertThat(completion.path("created").asLong()).isPositive();
		assertThat(completion.path("model").asString()).isEqualTo("gpt-4o-mini");
		JsonNode choice = completion.path("choices").path(0);
		assertThat(choice.path("message").path("role").asString()).isEqualTo("assistant");
		assertThat(choice.path("message").path("content").asString()).isEqualTo("Echo: Hello mock");
		assertThat(choice.path("finish_reason").asString()).isEqualTo("stop");
		assertThat(completion.path("usage").path("total_tokens").asInt()).isPositive();
	}

	@Test
	void mockProviderGivesEveryNewRequestAFreshId() {
		String request = promptRequest("Same words");

		JsonNode first = json(this.gateway.chat(request));
		JsonNode second = json(this.gateway.chat(request));

		assertThat(second.path("id")).isNotEqualTo(first.path("id"));
		assertThat(second.path("choices")).isEqualTo(first.path("choices"));
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', textBlock = """
			no model            | {"messages":[{"role":"user","content":"hi"}]}                           | invalid_model
			blank model         | {"model":" ","messages":[{"role":"user","content":"hi"}]}               | invalid_model
			no messages         | {"model":"gpt-4o-mini"}                                                 | invalid_messages
			empty messages      | {"model":"gpt-4o-mini","messages":[]}                                   | invalid_messages
			message without role| {"model":"gpt-4o-mini","messages":[{"content":"hi"}]}                   | invalid_messages
			temperature as text | {"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"temperature":"0"} | invalid_temperature
			temperature overflow| {"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"temperature":1e999999} | invalid_temperature
			not an object       | ["gpt-4o-mini"]                                                         | invalid_body
			unparsable JSON     | {"model":                                                               | invalid_json
			""")
	void rejectsInvalidChatRequestWith400(String description, String body, String code) {
		HttpResponse<byte[]> response = this.gateway.chat(body);

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(header(response, "Content-Type")).startsWith("application/json");
		JsonNode error = json(response).path("error");
		assertThat(error.path("type").asString()).isEqualTo("invalid_request_error");
		assertThat(error.path("code").asString()).isEqualTo(code);
		assertThat(error.path("message").asString()).isNotBlank();
	}

	/** Found by the reliability suite's bad-input properties: this was a 500. */
	/** Found by the reliability suite's bad-input properties: this was a 500 (the model judges it). */
	@Test
	void acceptsAnIntegerTemperatureTooLargeForADouble() {
		HttpResponse<byte[]> response = this.gateway.chat(chatRequest("\"temperature\":1" + "0".repeat(400)));

		assertThat(response.statusCode()).isEqualTo(200);
	}

	@Test
	void rejectsUnreadableMultipartBodyWith400() throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/v1/chat/completions"))
			.header("Content-Type", "multipart/form-data; boundary=b")
			.header("Idempotency-Key", newKey())
			.POST(HttpRequest.BodyPublishers.ofString("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end"))
			.build();

		HttpResponse<byte[]> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofByteArray());

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(json(response).path("error").path("code").asString()).isEqualTo("invalid_body");
	}

	@Test
	void replaysKeyedStreamWithTheSameEventsAndIds() {
		String key = newKey();
		String body = chatRequest("\"stream\":true");

		HttpResponse<byte[]> first = this.gateway.chat(body, "Idempotency-Key", key);
		HttpResponse<byte[]> retry = this.gateway.chat(body, "Idempotency-Key", key);

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(header(first, "Content-Type")).startsWith("text/event-stream");
		assertThat(header(first, "Idempotent-Replayed")).isNull();
		String events = new String(first.body(), StandardCharsets.UTF_8);
		assertThat(events).startsWith("id: 1.").contains("data: [DONE]");
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(header(retry, "Idempotent-Replayed")).isEqualTo("true");
		assertThat(retry.body()).isEqualTo(first.body());
	}

}
