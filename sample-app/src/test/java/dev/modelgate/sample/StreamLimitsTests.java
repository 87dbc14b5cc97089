package dev.modelgate.sample;

import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static dev.modelgate.sample.GatewayClient.header;
import static dev.modelgate.sample.GatewayClient.json;
import static dev.modelgate.sample.GatewayClient.promptRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The relay's limits: a slow mock (200ms before each word), streams of at most 500ms, one at a time.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
		"modelgate.provider.mock.chunk-delay=200ms", "modelgate.sample.stream.timeout=500ms",
		"modelgate.sample.stream.max-concurrent=1" })
class StreamLimitsTests {

	@LocalServerPort
	int port;

	GatewayClient gateway;

	@BeforeEach
	void connect() {
		this.gateway = new GatewayClient(this.port);
	}

	@Test
	void endsStreamPastItsTimeoutWithAnErrorEvent() {
		StreamedAnswer answer = this.gateway.stream(promptRequest("one two three four five six", "\"stream\":true"));

		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.data()).doesNotContain("[DONE]").hasSizeBetween(2, 6);
		JsonNode error = JsonMapper.shared().readTree(answer.data().get(answer.data().size() - 1)).path("error");
		assertThat(error.path("type").asString()).isEqualTo("server_error");
		assertThat(error.path("code").asString()).isEqualTo("stream_timeout");
	}

	@Test
	void refusesStreamBeyondTheMostRelayedAtOnceWith503() throws Exception {
		String request = promptRequest("one two three four five six", "\"stream\":true");
		try (InputStream running = this.gateway.open(request).body()) {
			HttpResponse<byte[]> refused = this.gateway.chat(request);

			assertThat(refused.statusCode()).isEqualTo(503);
			assertThat(header(refused, "Retry-After")).isNotBlank();
			assertThat(json(refused).path("error").path("code").asString()).isEqualTo("too_many_streams");
			assertThat(new String(running.readAllBytes(), StandardCharsets.UTF_8)).contains("stream_timeout");
		}
	}

}
