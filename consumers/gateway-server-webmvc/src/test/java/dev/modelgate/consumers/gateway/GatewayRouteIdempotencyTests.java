package dev.modelgate.consumers.gateway;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring Cloud Gateway server-webmvc route in front of a counting upstream, made idempotent by a
 * declared route: concurrent duplicates reach the upstream once, a retry is replayed, a reused key is
 * refused, and a route not declared is proxied untouched.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class GatewayRouteIdempotencyTests {

	private static final AtomicInteger UPSTREAM_CALLS = new AtomicInteger();

	private static final HttpServer UPSTREAM = upstream();

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	@LocalServerPort
	private int port;

	@DynamicPropertySource
	static void upstreamUrl(DynamicPropertyRegistry registry) {
		registry.add("modelgate.upstream", () -> "http://127.0.0.1:" + UPSTREAM.getAddress().getPort());
	}

	/** An OpenAI-style upstream that counts its calls and takes a while, so that duplicates overlap. */
	private static HttpServer upstream() {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
			server.createContext("/v1/stream", (exchange) -> {
				UPSTREAM_CALLS.incrementAndGet();
				exchange.getRequestBody().readAllBytes();
				exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
				exchange.sendResponseHeaders(200, 0);
				for (String event : new String[] { "data: one\n\n", "data: two\n\n" }) {
					exchange.getResponseBody().write(event.getBytes(StandardCharsets.UTF_8));
					exchange.getResponseBody().flush();
				}
				exchange.close();
			});
			server.createContext("/v1/", (exchange) -> {
				int call = UPSTREAM_CALLS.incrementAndGet();
				exchange.getRequestBody().readAllBytes();
				try {
					Thread.sleep(200);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				byte[] body = ("{\"id\":\"chatcmpl-" + call + "\",\"object\":\"chat.completion\"}")
					.getBytes(StandardCharsets.UTF_8);
				exchange.getResponseHeaders().add("Content-Type", "application/json");
				exchange.sendResponseHeaders(200, body.length);
				exchange.getResponseBody().write(body);
				exchange.close();
			});
			server.setExecutor(Executors.newFixedThreadPool(8));
			server.start();
			return server;
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@AfterAll
	static void stopUpstream() {
		UPSTREAM.stop(0);
	}

	@BeforeEach
	void resetCount() {
		UPSTREAM_CALLS.set(0);
	}

	@Test
	void concurrentDuplicatesReachTheUpstreamOnceAndARetryIsReplayed() throws Exception {
		int threads = 20;
		String key = UUID.randomUUID().toString();
		String body = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<HttpResponse<String>>> futures = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			futures.add(pool.submit(() -> {
				start.await();
				return post("/v1/chat/completions", key, body);
			}));
		}
		start.countDown();
		List<HttpResponse<String>> responses = new ArrayList<>();
		for (Future<HttpResponse<String>> future : futures) {
			responses.add(future.get(30, TimeUnit.SECONDS));
		}
		pool.shutdown();

		assertThat(UPSTREAM_CALLS.get()).isEqualTo(1);
		assertThat(responses).allSatisfy((response) -> assertThat(response.statusCode()).isIn(200, 409));
		String first = responses.stream().filter((r) -> r.statusCode() == 200).findFirst().orElseThrow().body();
		assertThat(first).contains("chatcmpl-1");

		HttpResponse<String> retry = post("/v1/chat/completions", key, body);
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(retry.body()).isEqualTo(first);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(UPSTREAM_CALLS.get()).isEqualTo(1);
	}

	@Test
	void keyReusedWithAnotherBodyIsRefusedBeforeTheUpstream() throws Exception {
		String key = UUID.randomUUID().toString();
		post("/v1/chat/completions", key, "{\"model\":\"a\"}");
		HttpResponse<String> reused = post("/v1/chat/completions", key, "{\"model\":\"b\"}");
		assertThat(reused.statusCode()).isEqualTo(422);
		assertThat(reused.body()).contains("idempotency_key_reused");
		assertThat(UPSTREAM_CALLS.get()).isEqualTo(1);
	}

	/**
	 * The gateway copies the upstream's stream on the request thread, not asynchronously, so the filter
	 * holds it back and records it as one response (no event ids, no live delivery, no attaching):
	 * the upstream still runs once and the retry gets the same bytes.
	 */
	@Test
	void keyedStreamThroughTheRouteIsRecordedWholeAndReplayed() throws Exception {
		String key = UUID.randomUUID().toString();
		HttpResponse<String> first = post("/v1/stream", key, "{\"stream\":true}");
		HttpResponse<String> retry = post("/v1/stream", key, "{\"stream\":true}");
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/event-stream"));
		assertThat(first.body()).isEqualTo("data: one\n\ndata: two\n\n");
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(UPSTREAM_CALLS.get()).isEqualTo(1);
	}

	@Test
	void routeNotDeclaredIsProxiedEveryTime() throws Exception {
		String key = UUID.randomUUID().toString();
		post("/v1/embeddings", key, "{}");
		HttpResponse<String> again = post("/v1/embeddings", key, "{}");
		assertThat(again.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(UPSTREAM_CALLS.get()).isEqualTo(2);
	}

	private HttpResponse<String> post(String path, String key, String body) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer gateway-client")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
		return this.client.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
