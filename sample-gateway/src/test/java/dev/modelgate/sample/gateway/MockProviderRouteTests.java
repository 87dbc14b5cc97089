package dev.modelgate.sample.gateway;

import java.net.URI;
import java.net.http.HttpResponse;
import java.util.UUID;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample as its README runs it: no provider configured, so the route forwards to the built-in
 * mock, through the same filter.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class MockProviderRouteTests {

	static {
		GatewayBlockHound.install();
	}

	@LocalServerPort
	int port;

	@Test
	void mockAnswersAndTheRetryIsReplayed() {
		String key = "mock-" + UUID.randomUUID();
		String body = "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"Hello\"}]}";

		HttpResponse<String> first = send(key, body);
		HttpResponse<String> retry = send(key, body);

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.body()).contains("\"object\":\"chat.completion\"").contains("Echo: Hello");
		assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(retry.body()).isEqualTo(first.body());
	}

	@Test
	void mockStreamsChunksEndingWithDone() {
		HttpResponse<String> stream = send(null,
				"{\"model\":\"gpt-4o-mini\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"Hi there\"}]}");

		assertThat(stream.statusCode()).isEqualTo(200);
		assertThat(stream.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/event-stream"));
		assertThat(stream.body()).contains("\"object\":\"chat.completion.chunk\"").contains("\"content\":\"Hi \"")
			.contains("\"finish_reason\":\"stop\"").endsWith("data:[DONE]\n\n");
	}

	private HttpResponse<String> send(String key, String body) {
		return RouteRequests.post(this.port, "/v1/chat/completions", "Bearer sk-mock", key, body);
	}

}
