package dev.modelgate.idempotency.web.reactive;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

import dev.modelgate.idempotency.micrometer.MicrometerIdempotencyListener;
import dev.modelgate.idempotency.web.reactive.ReactiveTestApplication.Runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Section 14, the status resource, on the reactive stack over real HTTP on a real Netty server, with
 * BlockHound watching and a handler held at a gate; subclasses choose the store.
 */
@Tag("boot")
@SpringBootTest(classes = ReactiveTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive",
				"modelgate.idempotency.status-path=/idempotency-status",
				"modelgate.idempotency.client-identity-header=Authorization",
				// Generous, so that a loaded machine does not turn a slow store call into a 503.
				"modelgate.idempotency.operation-timeout=10s" })
abstract class AbstractReactiveStatusResourceHttpTests {

	static {
		AbstractReactiveIdempotencyHttpTests.installBlockHound();
	}

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String CLIENT = "Bearer client-a";

	@LocalServerPort
	private int port;

	@Autowired
	private Runs runs;

	@Autowired
	private MeterRegistry registry;

	private final ExecutorService pool = Executors.newCachedThreadPool();

	private WebTestClient client;

	@BeforeEach
	void setUp() {
		this.client = WebTestClient.bindToServer()
			.baseUrl("http://127.0.0.1:" + this.port)
			.responseTimeout(Duration.ofSeconds(30))
			.build();
		this.runs.reset();
	}

	@AfterEach
	void openGate() {
		this.runs.open();
		this.pool.shutdownNow();
	}

	private double lookups(String outcome) {
		Counter counter = this.registry.find(MicrometerIdempotencyListener.STATUS_LOOKUPS)
			.tag("outcome", outcome)
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	private EntityExchangeResult<byte[]> post(String uri, String key) {
		return this.client.post()
			.uri(uri)
			.header("Authorization", CLIENT)
			.header("Idempotency-Key", key)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue("{\"item\":\"book\"}")
			.exchange()
			.expectBody()
			.returnResult();
	}

	private EntityExchangeResult<byte[]> get(String uri, String key, String client) {
		return get(uri, key, client, MediaType.ALL_VALUE);
	}

	private EntityExchangeResult<byte[]> get(String uri, String key, String client, String accept) {
		WebTestClient.RequestHeadersSpec<?> request = this.client.get()
			.uri(uri)
			.header("Authorization", client)
			.header("Accept", accept);
		if (key != null) {
			request.header("Idempotency-Key", key);
		}
		return request.exchange().expectBody().returnResult();
	}

	private static String text(EntityExchangeResult<byte[]> result) {
		byte[] body = result.getResponseBody();
		return (body != null) ? new String(body) : "";
	}

	private static void assertProblem(EntityExchangeResult<byte[]> result, int status, String code) {
		assertThat(result.getStatus().value()).as(text(result)).isEqualTo(status);
		assertThat(result.getResponseHeaders().getContentType()).hasToString("application/problem+json");
		assertThat(result.getResponseHeaders().getCacheControl()).isEqualTo("no-store");
		JsonNode problem = JSON.readTree(result.getResponseBody());
		assertThat(problem.get("code").stringValue()).isEqualTo(code);
	}

	private void awaitRuns(String handler, int count) {
		await(handler + " ran").atMost(Duration.ofSeconds(10)).until(() -> this.runs.of(handler) >= count);
		assertThat(this.runs.of(handler)).isEqualTo(count);
	}

	/** The 409 of a duplicate of the held request, and the Location it carries. */
	private String duplicateLocation(String uri, String handler, String key) {
		EntityExchangeResult<byte[]> duplicate = post(uri, key);
		assertProblem(duplicate, 409, "idempotency_request_in_progress");
		String location = duplicate.getResponseHeaders().getFirst("Location");
		assertThat(location).matches("/idempotency-status/[A-Za-z0-9_-]+");
		assertThat(this.runs.of(handler)).isEqualTo(1);
		return location;
	}

	@Test
	void statusIs202WhileTheHandlerRunsThenTheRecordedAnswerByteForByte() throws Exception {
		this.runs.close();
		String key = UUID.randomUUID().toString();
		CompletableFuture<EntityExchangeResult<byte[]>> first = CompletableFuture
			.supplyAsync(() -> post("/gated-orders", key));
		awaitRuns("gated-orders", 1);
		String location = duplicateLocation("/gated-orders", "gated-orders", key);

		EntityExchangeResult<byte[]> running = get(location, key, CLIENT);
		assertThat(running.getStatus().value()).as(text(running)).isEqualTo(202);
		assertThat(running.getResponseHeaders().getFirst("Retry-After")).isEqualTo("1");
		assertThat(first).isNotDone();

		this.runs.open();
		EntityExchangeResult<byte[]> answered = first.get(10, TimeUnit.SECONDS);
		EntityExchangeResult<byte[]> completed = get(location, key, CLIENT);

		assertThat(answered.getStatus().value()).isEqualTo(201);
		assertThat(completed.getStatus().value()).isEqualTo(201);
		assertThat(completed.getResponseBody()).isEqualTo(answered.getResponseBody());
		assertThat(completed.getResponseHeaders().getLocation()).isEqualTo(answered.getResponseHeaders().getLocation());
		assertThat(completed.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(this.runs.of("gated-orders")).isEqualTo(1);
	}

	/**
	 * A stream's status, asked for with {@code Accept: text/event-stream}, is the stream itself: followed
	 * from the store while it runs, replayed once it completed, the same bytes as its own client got.
	 * Without that {@code Accept}, a running stream is 202 like any request.
	 */
	@Test
	void aStreamIsFollowedWhileItRunsAndReplayedOnceItCompleted() throws Exception {
		this.runs.close();
		String key = UUID.randomUUID().toString();
		CompletableFuture<EntityExchangeResult<byte[]>> first = CompletableFuture
			.supplyAsync(() -> post("/held-events", key), this.pool);
		awaitRuns("held-events-emitted", 1);
		String location = duplicateLocation("/held-events", "held-events", key);
		assertThat(get(location, key, CLIENT).getStatus().value()).isEqualTo(202);

		double attached = lookups("attached");
		CompletableFuture<EntityExchangeResult<byte[]>> followed = CompletableFuture
			.supplyAsync(() -> get(location, key, CLIENT, MediaType.TEXT_EVENT_STREAM_VALUE), this.pool);
		await("the lookup to follow the running stream").atMost(Duration.ofSeconds(10))
			.until(() -> lookups("attached") == attached + 1);
		assertThat(followed).isNotDone();
		this.runs.open();
		EntityExchangeResult<byte[]> answered = first.get(10, TimeUnit.SECONDS);
		EntityExchangeResult<byte[]> live = followed.get(10, TimeUnit.SECONDS);
		double replayed = lookups("replayed");
		EntityExchangeResult<byte[]> completed = get(location, key, CLIENT);

		assertThat(answered.getStatus().value()).isEqualTo(200);
		assertThat(text(answered)).contains("run 1 chunk 1", "run 1 chunk 2");
		for (EntityExchangeResult<byte[]> replay : List.of(live, completed)) {
			assertThat(replay.getStatus().value()).isEqualTo(200);
			assertThat(text(replay)).isEqualTo(text(answered));
			assertThat(replay.getResponseHeaders().getContentType())
				.isEqualTo(answered.getResponseHeaders().getContentType());
			assertThat(replay.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		}
		assertThat(lookups("replayed")).isEqualTo(replayed + 1);
		assertThat(this.runs.of("held-events")).isEqualTo(1);
	}

	@Test
	void anotherClientGetsThe404OfAKeyNeverUsed() {
		this.runs.close();
		String key = UUID.randomUUID().toString();
		CompletableFuture.runAsync(() -> post("/gated-orders", key));
		awaitRuns("gated-orders", 1);
		String location = duplicateLocation("/gated-orders", "gated-orders", key);

		EntityExchangeResult<byte[]> otherClient = get(location, key, "Bearer client-b");
		EntityExchangeResult<byte[]> unknownKey = get(location, UUID.randomUUID().toString(), CLIENT);

		assertProblem(otherClient, 404, "idempotency_key_unknown");
		assertThat(otherClient.getResponseBody()).isEqualTo(unknownKey.getResponseBody());
		assertThat(otherClient.getResponseHeaders().toSingleValueMap().keySet()).isEqualTo(unknownKey.getResponseHeaders().toSingleValueMap().keySet());
		assertThat(get(location, key, CLIENT).getStatus().value()).isEqualTo(202);
		this.runs.open();
		await("the request to complete").atMost(Duration.ofSeconds(10))
			.until(() -> get(location, key, CLIENT).getStatus().value() == 201);
		assertThat(this.runs.of("gated-orders")).isEqualTo(1);
	}

	@Test
	void statusIsTheSpentKeyProblemOnceTheAnswerExpired() {
		this.runs.close();
		String key = UUID.randomUUID().toString();
		CompletableFuture.runAsync(() -> post("/gated-spent-orders", key));
		awaitRuns("gated-spent-orders", 1);
		String location = duplicateLocation("/gated-spent-orders", "gated-spent-orders", key);
		this.runs.open();

		EntityExchangeResult<byte[]> spent = await("the answer to expire (ttl 1s)").atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> get(location, key, CLIENT), (result) -> result.getStatus().value() == 410);

		assertProblem(spent, 410, "idempotency_key_spent");
		assertThat(JSON.readTree(spent.getResponseBody()).get("original_status").intValue()).isEqualTo(201);
		assertThat(this.runs.of("gated-spent-orders")).isEqualTo(1);
	}

	@Test
	void aBadTokenOrAMissingKeyIs400() {
		assertProblem(get("/idempotency-status/bm90IGEgdG9rZW4", "k-1", CLIENT), 400,
				"idempotency_status_token_invalid");
		this.runs.close();
		String key = UUID.randomUUID().toString();
		CompletableFuture.runAsync(() -> post("/gated-orders", key));
		awaitRuns("gated-orders", 1);
		String location = duplicateLocation("/gated-orders", "gated-orders", key);

		assertProblem(get(location, null, CLIENT), 400, "idempotency_key_missing");
	}

}
