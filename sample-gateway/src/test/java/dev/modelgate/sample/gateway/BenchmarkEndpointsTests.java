package dev.modelgate.sample.gateway;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@code benchmarks/load/gateway.sh} compares answers alike: the annotated WebFlux handler, its
 * twin, and the twin behind the floor filter each answer as the mock provider does, only the
 * annotated one replays a retry, and the floor filter holds the floor path's responses and no other.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "modelgate.benchmark.enabled=true")
class BenchmarkEndpointsTests {

	static {
		GatewayBlockHound.install();
	}

	private static final String BODY = "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"Hello\"}]}";

	@LocalServerPort
	int port;

	@Autowired
	BenchmarkFloorFilter floor;

	@Test
	void annotatedHandlerRunsOnceAndReplaysItsRetry() {
		String key = "benchmark-" + UUID.randomUUID();
		HttpResponse<String> first = send("/benchmark/webflux/chat/completions", key);
		HttpResponse<String> retry = send("/benchmark/webflux/chat/completions", key);

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.body()).contains("\"object\":\"chat.completion\"").contains("Echo: Hello");
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(retry.body()).isEqualTo(first.body());
	}

	@Test
	void twinAndFloorAnswerAsTheMockDoesAndNeverReplay() {
		String key = "benchmark-" + UUID.randomUUID();
		long heldBefore = this.floor.held();
		for (String path : new String[] { "/benchmark/webflux/twin/chat/completions", BenchmarkFloorFilter.PATH }) {
			HttpResponse<String> first = send(path, key);
			HttpResponse<String> again = send(path, key);

			assertThat(first.statusCode()).as(path).isEqualTo(200);
			assertThat(first.body()).as(path).contains("\"object\":\"chat.completion\"").contains("Echo: Hello");
			assertThat(first.headers().firstValue("Content-Length")).as(path)
				.hasValue(String.valueOf(first.body().getBytes(StandardCharsets.UTF_8).length));
			assertThat(again.headers().firstValue("Idempotent-Replayed")).as(path).isEmpty();
			assertThat(again.body()).as(path).isNotEqualTo(first.body());
		}
		// Only the floor's two requests went through its hold; the twin's two did not.
		assertThat(this.floor.held() - heldBefore).isEqualTo(2);
	}

	private HttpResponse<String> send(String path, String key) {
		return RouteRequests.post(this.port, path, "Bearer sk-benchmark", key, BODY);
	}

}
