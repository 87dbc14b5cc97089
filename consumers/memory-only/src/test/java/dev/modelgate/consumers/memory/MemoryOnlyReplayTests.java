package dev.modelgate.consumers.memory;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves that an application with only the starter and Spring MVC ({@code store=memory}) starts, replays a retry
 * with the same key and body without running the handler again, and rejects the key with another body.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class MemoryOnlyReplayTests {

	/** The header that marks a replay: Stripe's name, the starter's default. */
	private static final List<String> REPLAYED_HEADER_NAMES = List.of("Idempotent-Replayed");

	private static final String ORDER = "{\"item\":\"book\",\"quantity\":1}";

	private static final String OTHER_ORDER = "{\"item\":\"book\",\"quantity\":2}";

	private static final HttpClient HTTP = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private OrderController orders;

	@Test
	void retryWithTheSameKeyAndBodyIsReplayedWithoutRunningTheHandlerAgain() throws Exception {
		String key = UUID.randomUUID().toString();
		int before = this.orders.invocations();

		HttpResponse<byte[]> first = post(key, ORDER);
		assertThat(first.statusCode()).as(describe(first)).isBetween(200, 299);
		assertThat(replayedHeaders(first)).as(describe(first)).isEmpty();

		HttpResponse<byte[]> retry = post(key, ORDER);
		assertThat(retry.statusCode()).as(describe(retry)).isEqualTo(first.statusCode());
		assertThat(retry.body()).as(describe(retry)).isEqualTo(first.body());
		assertThat(replayedHeaders(retry).values()).as(describe(retry))
			.anySatisfy((values) -> assertThat(values).containsExactly("true"));

		assertThat(this.orders.invocations() - before).as("handler runs").isEqualTo(1);
	}

	@Test
	void sameKeyWithADifferentBodyIsRejectedWith422ProblemWithoutRunningTheHandler() throws Exception {
		String key = UUID.randomUUID().toString();
		HttpResponse<byte[]> first = post(key, ORDER);
		assertThat(first.statusCode()).as(describe(first)).isBetween(200, 299);
		int before = this.orders.invocations();

		HttpResponse<byte[]> reused = post(key, OTHER_ORDER);
		assertThat(reused.statusCode()).as(describe(reused)).isEqualTo(422);
		assertThat(reused.headers().firstValue("Content-Type")).as(describe(reused))
			.hasValueSatisfying((type) -> assertThat(MediaType.parseMediaType(type)
				.equalsTypeAndSubtype(MediaType.APPLICATION_PROBLEM_JSON)).as(type).isTrue());

		assertThat(this.orders.invocations()).as("handler runs").isEqualTo(before);
	}

	private HttpResponse<byte[]> post(String key, String json) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/orders"))
			.header("Content-Type", "application/json")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build();
		return HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
	}

	private static Map<String, List<String>> replayedHeaders(HttpResponse<?> response) {
		return REPLAYED_HEADER_NAMES.stream()
			.filter((name) -> response.headers().firstValue(name).isPresent())
			.collect(Collectors.toMap((name) -> name, (name) -> response.headers().allValues(name)));
	}

	private static String describe(HttpResponse<byte[]> response) {
		return response.statusCode() + " " + response.headers().map() + " "
				+ new String(response.body(), StandardCharsets.UTF_8);
	}

}
