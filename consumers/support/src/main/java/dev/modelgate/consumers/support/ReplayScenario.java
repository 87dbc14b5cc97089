package dev.modelgate.consumers.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every consumer application must show, whichever store it has: a retry with the same key and
 * body is replayed byte for byte with {@code Idempotent-Replayed: true} and the handler runs once,
 * and the same key with another body is refused with a 422 problem. A consumer's test extends this
 * class, says where the application listens and how many times its handler ran, and adds the checks
 * of its own store.
 */
public abstract class ReplayScenario {

	/** The header that marks a replay: Stripe's name, the starter's default. */
	public static final String REPLAYED_HEADER = "Idempotent-Replayed";

	/** The order every scenario posts. */
	public static final String ORDER = "{\"item\":\"book\",\"quantity\":1}";

	private static final String OTHER_ORDER = "{\"item\":\"book\",\"quantity\":2}";

	private static final HttpClient HTTP = HttpClient.newHttpClient();

	/** The port the application listens on. */
	protected abstract int port();

	/** How many times the application's {@code @Idempotent} handler has run so far. */
	protected abstract int invocations();

	/**
	 * The build runs each consumer on more than one Java (Java 17, and Java 25 with virtual threads):
	 * this says the run is on the one the build named.
	 */
	@Test
	void runsOnTheJavaTheBuildNamed() {
		String feature = System.getProperty("consumer.java.feature");
		assertThat(feature).as("system property consumer.java.feature, set by the build").isNotBlank();
		assertThat(Runtime.version().feature()).isEqualTo(Integer.parseInt(feature));
	}

	@Test
	void retryWithTheSameKeyAndBodyIsReplayedWithoutRunningTheHandlerAgain() throws Exception {
		String key = UUID.randomUUID().toString();
		int before = invocations();

		HttpResponse<byte[]> first = post(key, ORDER);
		assertThat(first.statusCode()).as(describe(first)).isBetween(200, 299);
		assertThat(first.headers().firstValue(REPLAYED_HEADER)).as(describe(first)).isEmpty();

		HttpResponse<byte[]> retry = post(key, ORDER);
		assertThat(retry.statusCode()).as(describe(retry)).isEqualTo(first.statusCode());
		assertThat(retry.body()).as(describe(retry)).isEqualTo(first.body());
		assertThat(retry.headers().allValues(REPLAYED_HEADER)).as(describe(retry)).containsExactly("true");

		assertThat(invocations() - before).as("handler runs").isEqualTo(1);
	}

	@Test
	void sameKeyWithADifferentBodyIsRejectedWith422ProblemWithoutRunningTheHandler() throws Exception {
		String key = UUID.randomUUID().toString();
		HttpResponse<byte[]> first = post(key, ORDER);
		assertThat(first.statusCode()).as(describe(first)).isBetween(200, 299);
		int before = invocations();

		HttpResponse<byte[]> reused = post(key, OTHER_ORDER);
		assertThat(reused.statusCode()).as(describe(reused)).isEqualTo(422);
		assertThat(reused.headers().firstValue("Content-Type")).as(describe(reused))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));

		assertThat(invocations()).as("handler runs").isEqualTo(before);
	}

	/** Posts {@code json} to {@code /orders} with the key, as a client would. */
	protected HttpResponse<byte[]> post(String key, String json) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + "/orders"))
			.header("Content-Type", "application/json")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build();
		return HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
	}

	/** Status, headers and body, for assertion messages. */
	protected static String describe(HttpResponse<byte[]> response) {
		return response.statusCode() + " " + response.headers().map() + " "
				+ new String(response.body(), StandardCharsets.UTF_8);
	}

	/** Whether {@code bytes} hold {@code part} anywhere. */
	protected static boolean contains(byte[] bytes, byte[] part) {
		return new String(bytes, StandardCharsets.ISO_8859_1).contains(new String(part, StandardCharsets.ISO_8859_1));
	}

}
