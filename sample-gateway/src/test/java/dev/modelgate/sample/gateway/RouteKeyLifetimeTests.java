package dev.modelgate.sample.gateway;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A key's whole life on the sample's chat route, asked from outside at each age through the status
 * resource and by retries: running (202), completed (the replay), spent after {@code ttl} (410, the
 * upstream not called again), free after {@code spent-key-retention} (the request runs again). Each
 * store runs it in a subclass; BlockHound watches Netty's threads.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.provider.api-key=test-provider-key", "modelgate.idempotency.ttl=3s",
				"modelgate.idempotency.spent-key-retention=4s",
				// Generous, so that a loaded machine does not turn a slow store call into a 503.
				"modelgate.idempotency.operation-timeout=10s" })
abstract class RouteKeyLifetimeTests {

	static {
		GatewayBlockHound.install();
	}

	static final CountingUpstream upstream = CountingUpstream.shared();

	private static final String ALICE = "Bearer sk-alice";

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final Pattern CODE = Pattern.compile("\"code\"\\s*:\\s*\"([^\"]+)\"");

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void upstreamProvider(DynamicPropertyRegistry registry) {
		registry.add("modelgate.provider.base-url", upstream::baseUrl);
	}

	@BeforeEach
	void resetUpstream() {
		upstream.reset();
	}

	@Test
	void statusAndRetriesFollowTheKeyFromRunningToSpentToFree() throws Exception {
		String key = "gw-" + UUID.randomUUID();
		String body = "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"Hello " + UUID.randomUUID()
				+ "\"}]}";
		CountDownLatch release = upstream.holdAnswers();
		try {
			CompletableFuture<HttpResponse<byte[]>> first = CompletableFuture.supplyAsync(() -> post(key, body));
			await("the upstream to be called").atMost(WAIT).until(() -> upstream.calls() == 1);

			HttpResponse<byte[]> duplicate = post(key, body);
			assertThat(duplicate.statusCode()).as(text(duplicate)).isEqualTo(409);
			assertThat(code(duplicate)).isEqualTo("idempotency_request_in_progress");
			String location = duplicate.headers().firstValue("Location").orElseThrow();
			assertThat(location).matches("/idempotency-status/[A-Za-z0-9_-]+");
			HttpResponse<byte[]> running = get(location, key, ALICE);
			HttpResponse<byte[]> otherClient = get(location, key, "Bearer sk-mallory");
			assertThat(running.statusCode()).as(text(running)).isEqualTo(202);
			assertThat(running.headers().firstValue("Retry-After")).isPresent();
			assertThat(otherClient.statusCode()).as(text(otherClient)).isEqualTo(404);
			assertThat(code(otherClient)).isEqualTo("idempotency_key_unknown");

			release.countDown();
			HttpResponse<byte[]> answered = first.get(WAIT.toSeconds(), TimeUnit.SECONDS);
			HttpResponse<byte[]> completed = get(location, key, ALICE);
			assertThat(answered.statusCode()).isEqualTo(200);
			assertThat(completed.statusCode()).as(text(completed)).isEqualTo(200);
			assertThat(completed.body()).isEqualTo(answered.body());
			assertThat(completed.headers().firstValue("Idempotent-Replayed")).hasValue("true");

			HttpResponse<byte[]> spent = await("the answer to expire after ttl (3s)").atMost(WAIT)
				.pollInterval(Duration.ofMillis(200))
				.until(() -> get(location, key, ALICE), (response) -> response.statusCode() != 200);
			HttpResponse<byte[]> lateRetry = post(key, body);
			assertThat(spent.statusCode()).as(text(spent)).isEqualTo(410);
			assertThat(code(spent)).isEqualTo("idempotency_key_spent");
			assertThat(lateRetry.statusCode()).as(text(lateRetry)).isEqualTo(410);
			assertThat(code(lateRetry)).isEqualTo("idempotency_key_spent");
			assertThat(upstream.calls()).isEqualTo(1);

			await("the key to be free after spent-key-retention (4s)").atMost(WAIT)
				.pollInterval(Duration.ofMillis(200))
				.until(() -> get(location, key, ALICE).statusCode() == 404);
			HttpResponse<byte[]> afterRetention = post(key, body);
			assertThat(afterRetention.statusCode()).isEqualTo(200);
			assertThat(afterRetention.headers().firstValue("Idempotent-Replayed")).isEmpty();
			assertThat(upstream.calls()).isEqualTo(2);
		}
		finally {
			release.countDown();
		}
	}

	private static String text(HttpResponse<byte[]> response) {
		return new String(response.body(), StandardCharsets.UTF_8);
	}

	/** The problem's {@code code}, without a JSON library: this class also runs on Jackson 2 (Boot 3.5). */
	private static String code(HttpResponse<byte[]> response) {
		Matcher code = CODE.matcher(text(response));
		return code.find() ? code.group(1) : null;
	}

	private HttpResponse<byte[]> post(String key, String body) {
		return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/v1/chat/completions"))
			.header("Content-Type", "application/json")
			.header("Authorization", ALICE)
			.header("Idempotency-Key", key)
			.timeout(WAIT)
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build());
	}

	private HttpResponse<byte[]> get(String path, String key, String authorization) {
		return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.header("Authorization", authorization)
			.header("Idempotency-Key", key)
			.timeout(WAIT)
			.GET()
			.build());
	}

	private HttpResponse<byte[]> send(HttpRequest request) {
		try {
			return this.http.send(request, HttpResponse.BodyHandlers.ofByteArray());
		}
		catch (IOException ex) {
			throw new IllegalStateException("The gateway did not answer", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
