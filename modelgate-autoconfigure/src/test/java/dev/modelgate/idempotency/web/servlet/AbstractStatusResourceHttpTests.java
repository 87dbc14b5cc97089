package dev.modelgate.idempotency.web.servlet;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.modelgate.idempotency.micrometer.MicrometerIdempotencyListener;
import dev.modelgate.idempotency.web.testapp.Invocations;
import dev.modelgate.idempotency.web.testapp.TestApplication;

import static dev.modelgate.idempotency.web.servlet.HttpClientSupport.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Section 14, the status resource, over real HTTP on a real server with a handler held on a latch;
 * subclasses choose the store.
 */
@Tag("boot")
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.idempotency.status-path=/idempotency-status",
				"modelgate.idempotency.client-identity-header=Authorization",
				// Generous, so that a loaded CI machine does not turn a slow store call into a 503.
				"modelgate.idempotency.operation-timeout=10s" })
abstract class AbstractStatusResourceHttpTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String STATUS_LOCATION = "/idempotency-status/[A-Za-z0-9_-]+";

	@LocalServerPort
	private int port;

	@Autowired
	private Invocations invocations;

	@Autowired
	private MeterRegistry registry;

	private HttpClientSupport http;

	private final ExecutorService pool = Executors.newCachedThreadPool();

	@BeforeEach
	void setUp() {
		this.http = new HttpClientSupport(this.port);
		this.invocations.reset();
	}

	@AfterEach
	void openGate() {
		this.invocations.open();
		this.pool.shutdownNow();
	}

	private static void assertProblem(HttpResponse<byte[]> response, int status, String code) {
		assertThat(response.statusCode()).as(text(response)).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
		JsonNode problem = JSON.readTree(response.body());
		assertThat(problem.get("code").stringValue()).isEqualTo(code);
		assertThat(problem.get("status").intValue()).isEqualTo(status);
	}

	private double lookups(String outcome) {
		Counter counter = this.registry.find(MicrometerIdempotencyListener.STATUS_LOOKUPS)
			.tag("outcome", outcome)
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	/** Starts {@code path} held at the gate and answers the 409 of a duplicate, its Location checked. */
	private String duplicateLocation(String path, String handler, String key) {
		HttpResponse<byte[]> duplicate = this.http.postJson(path, key, "{}");
		assertProblem(duplicate, 409, "idempotency_request_in_progress");
		assertThat(duplicate.headers().firstValue("Location")).hasValueSatisfying(
				(location) -> assertThat(location).matches(STATUS_LOCATION));
		assertThat(this.invocations.count(handler)).isEqualTo(1);
		return duplicate.headers().firstValue("Location").orElseThrow();
	}

	@Test
	void statusIs202WhileTheHandlerRunsThenTheRecordedAnswerByteForByte() throws Exception {
		this.invocations.close();
		String key = UUID.randomUUID().toString();
		Future<HttpResponse<byte[]>> first = this.pool.submit(() -> this.http.postJson("/slow", key, "{}"));
		this.invocations.awaitCount("slow", 1);
		String location = duplicateLocation("/slow", "slow", key);

		double inProgress = lookups("in_progress");
		double replayed = lookups("replayed");
		HttpResponse<byte[]> running = this.http.getKeyed(location, key);
		assertThat(running.statusCode()).as(text(running)).isEqualTo(202);
		assertThat(running.headers().firstValue("Retry-After")).hasValue("1");
		assertThat(running.headers().firstValue("Cache-Control")).hasValue("no-store");
		assertThat(first).isNotDone();

		this.invocations.open();
		HttpResponse<byte[]> answered = first.get(10, TimeUnit.SECONDS);
		HttpResponse<byte[]> completed = this.http.getKeyed(location, key);

		assertThat(answered.statusCode()).isEqualTo(200);
		assertThat(completed.statusCode()).isEqualTo(200);
		assertThat(completed.body()).isEqualTo(answered.body());
		assertThat(completed.headers().firstValue("Content-Type"))
			.isEqualTo(answered.headers().firstValue("Content-Type"));
		assertThat(completed.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.invocations.count("slow")).isEqualTo(1);
		assertThat(lookups("in_progress")).isEqualTo(inProgress + 1);
		assertThat(lookups("replayed")).isEqualTo(replayed + 1);
	}

	/**
	 * A stream's status, asked for with {@code Accept: text/event-stream}, is the stream itself: followed
	 * from the store while it runs, replayed once it completed, the same bytes as its own client got.
	 * Without that {@code Accept}, a running stream is 202 like any request.
	 */
	@Test
	void aStreamIsFollowedWhileItRunsAndReplayedOnceItCompleted() throws Exception {
		this.invocations.close();
		String key = UUID.randomUUID().toString();
		Future<HttpResponse<byte[]>> first = this.pool.submit(() -> this.http.postJson("/events-no-attach", key, "{}"));
		this.invocations.awaitCount("events-sent", 1);
		String location = duplicateLocation("/events-no-attach", "events", key);
		assertThat(this.http.getKeyed(location, key).statusCode()).isEqualTo(202);

		double attached = lookups("attached");
		Future<HttpResponse<byte[]>> followed = this.pool
			.submit(() -> this.http.getKeyed(location, key, "Accept", "text/event-stream"));
		await("the lookup to follow the running stream").atMost(Duration.ofSeconds(10))
			.until(() -> lookups("attached") == attached + 1);
		assertThat(followed).isNotDone();
		this.invocations.open();
		HttpResponse<byte[]> answered = first.get(10, TimeUnit.SECONDS);
		HttpResponse<byte[]> live = followed.get(10, TimeUnit.SECONDS);
		double replayed = lookups("replayed");
		HttpResponse<byte[]> completed = this.http.getKeyed(location, key);

		assertThat(answered.statusCode()).isEqualTo(200);
		assertThat(text(answered)).contains("{\"n\":1}", "{\"n\":2}");
		for (HttpResponse<byte[]> replay : List.of(live, completed)) {
			assertThat(replay.statusCode()).isEqualTo(200);
			assertThat(text(replay)).isEqualTo(text(answered));
			assertThat(replay.headers().firstValue("Content-Type")).isEqualTo(answered.headers().firstValue("Content-Type"));
			assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		}
		assertThat(lookups("replayed")).isEqualTo(replayed + 1);
		assertThat(this.invocations.count("events")).isEqualTo(1);
	}

	@Test
	void anotherClientGetsThe404OfAKeyNeverUsed() throws Exception {
		this.invocations.close();
		String key = UUID.randomUUID().toString();
		this.pool.submit(() -> this.http.postJson("/slow", key, "{}"));
		this.invocations.awaitCount("slow", 1);
		String location = duplicateLocation("/slow", "slow", key);

		HttpResponse<byte[]> otherClient = this.http.getKeyed(location, key, "Authorization", "Bearer other-client");
		HttpResponse<byte[]> unknownKey = this.http.getKeyed(location, UUID.randomUUID().toString());

		assertProblem(otherClient, 404, "idempotency_key_unknown");
		assertThat(otherClient.body()).isEqualTo(unknownKey.body());
		assertThat(otherClient.statusCode()).isEqualTo(unknownKey.statusCode());
		assertThat(otherClient.headers().map().keySet()).isEqualTo(unknownKey.headers().map().keySet());
		// The lookups left nothing behind: the owner still sees its request running.
		assertThat(this.http.getKeyed(location, key).statusCode()).isEqualTo(202);
		this.invocations.open();
		await("the request to complete").atMost(Duration.ofSeconds(10))
			.until(() -> this.http.getKeyed(location, key).statusCode() == 200);
		assertThat(this.invocations.count("slow")).isEqualTo(1);
	}

	@Test
	void statusIsTheSpentKeyProblemOnceTheAnswerExpired() {
		this.invocations.close();
		String key = UUID.randomUUID().toString();
		this.pool.submit(() -> this.http.postJson("/slow-spent", key, "{}"));
		this.invocations.awaitCount("slow-spent", 1);
		String location = duplicateLocation("/slow-spent", "slow-spent", key);
		this.invocations.open();

		HttpResponse<byte[]> spent = await("the answer to expire (ttl 1s)").atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> this.http.getKeyed(location, key), (response) -> response.statusCode() == 410);

		assertProblem(spent, 410, "idempotency_key_spent");
		assertThat(JSON.readTree(spent.body()).get("original_status").intValue()).isEqualTo(200);
		assertProblem(this.http.postJson("/slow-spent", key, "{}"), 410, "idempotency_key_spent");
		assertThat(this.invocations.count("slow-spent")).isEqualTo(1);
	}

	@Test
	void aBadTokenOrAMissingKeyIs400() {
		assertProblem(this.http.getKeyed("/idempotency-status/bm90IGEgdG9rZW4", "k-1"), 400,
				"idempotency_status_token_invalid");
		this.invocations.close();
		String key = UUID.randomUUID().toString();
		this.pool.submit(() -> this.http.postJson("/slow", key, "{}"));
		this.invocations.awaitCount("slow", 1);
		String location = duplicateLocation("/slow", "slow", key);

		assertProblem(this.http.getKeyed(location, null), 400, "idempotency_key_missing");
	}

}
