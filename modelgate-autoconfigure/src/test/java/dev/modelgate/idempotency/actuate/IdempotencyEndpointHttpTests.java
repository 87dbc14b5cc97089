package dev.modelgate.idempotency.actuate;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.modelgate.idempotency.core.IdempotencyKey;
import dev.modelgate.idempotency.core.IdempotencyScope;
import dev.modelgate.idempotency.micrometer.MicrometerIdempotencyListener;
import dev.modelgate.idempotency.testsupport.ObservabilityTest;
import dev.modelgate.idempotency.testsupport.TestHttp;
import dev.modelgate.idempotency.web.servlet.DefaultClientIdentityResolver;
import dev.modelgate.idempotency.web.testapp.Invocations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The idempotency endpoint on a real server: a support engineer finds a client's record from what
 * the client sent, sees what became of it without seeing the key, the client or the body, and
 * deletes it so that the key runs again.
 */
@ObservabilityTest
class IdempotencyEndpointHttpTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String API_KEY = "Bearer sk-support-case-7";

	@LocalServerPort
	private int port;

	@Autowired
	private Invocations invocations;

	@Autowired
	private MeterRegistry meters;

	private TestHttp http;

	@BeforeEach
	void setUp() {
		this.http = new TestHttp(this.port);
		this.invocations.reset();
	}

	@AfterEach
	void openGate() {
		this.invocations.open();
	}

	@Test
	void findsAClientsCompletedRecordThenDeletesItSoTheKeyRunsAgain() {
		String key = newKey();
		String body = "{\"item\":\"confidential-book\"}";
		assertThat(this.http.post("/orders", key, body, "Authorization", API_KEY).statusCode()).isEqualTo(201);
		String query = "?method=POST&route=/orders&key=" + encode(key) + "&client=" + encode(API_KEY);

		HttpResponse<String> found = this.http.get("/actuator/idempotency" + query);
		assertThat(found.statusCode()).isEqualTo(200);
		JsonNode record = JSON.readTree(found.body());
		String scope = scope(DefaultClientIdentityResolver.headerIdentity(API_KEY), "/orders", key);
		assertThat(record.get("scope").stringValue()).isEqualTo(scope);
		assertThat(record.get("state").stringValue()).isEqualTo("completed");
		assertThat(record.get("outcome").stringValue()).isEqualTo("response");
		assertThat(record.get("outcomeSize").longValue()).isPositive();
		assertThat(Duration.parse(record.get("age").stringValue())).isBetween(Duration.ZERO, Duration.ofMinutes(1));
		assertThat(Duration.parse(record.get("expiresIn").stringValue())).isBetween(Duration.ofHours(23),
				Duration.ofHours(24));
		assertThat(record.get("createdAt").stringValue()).isNotBlank();
		assertThat(record.get("expiresAt").stringValue()).isNotBlank();
		assertThat(found.body()).doesNotContain(key, "sk-support-case-7", "confidential-book");

		HttpResponse<String> byScope = this.http.get("/actuator/idempotency/" + scope);
		assertThat(byScope.statusCode()).isEqualTo(200);
		assertThat(JSON.readTree(byScope.body()).get("state").stringValue()).isEqualTo("completed");

		HttpResponse<String> deleted = this.http.delete("/actuator/idempotency" + query);
		assertThat(deleted.statusCode()).isEqualTo(200);
		assertThat(JSON.readTree(deleted.body()).get("deleted").booleanValue()).isTrue();
		assertThat(this.http.get("/actuator/idempotency" + query).statusCode()).isEqualTo(404);

		HttpResponse<String> again = this.http.post("/orders", key, body, "Authorization", API_KEY);
		assertThat(again.statusCode()).isEqualTo(201);
		assertThat(again.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(this.invocations.count("orders")).isEqualTo(2);
	}

	@Test
	void deletingARunningRequestsRecordTakesItsLease() throws Exception {
		double lost = decisions("lease_lost", "/slow");
		String key = newKey();
		String scope = scope(DefaultClientIdentityResolver.ANONYMOUS, "/slow", key);
		this.invocations.close();
		ExecutorService client = Executors.newSingleThreadExecutor();
		try {
			Future<HttpResponse<String>> slow = client.submit(() -> this.http.post("/slow", key, "{}"));
			await().atMost(Duration.ofSeconds(10)).until(() -> this.invocations.count("slow") == 1);
			JsonNode running = JSON.readTree(this.http.get("/actuator/idempotency/" + scope).body());
			assertThat(running.get("state").stringValue()).isEqualTo("in_progress");
			assertThat(running.has("outcome")).as("no outcome stored yet").isFalse();
			assertThat(Duration.parse(running.get("expiresIn").stringValue())).isBetween(Duration.ZERO,
					Duration.ofSeconds(30));

			HttpResponse<String> deleted = this.http.delete("/actuator/idempotency/" + scope);
			assertThat(JSON.readTree(deleted.body()).get("deleted").booleanValue()).isTrue();
			this.invocations.open();
			assertThat(slow.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		}
		finally {
			client.shutdownNow();
		}
		assertThat(decisions("lease_lost", "/slow")).isEqualTo(lost + 1);
		assertThat(this.http.get("/actuator/idempotency/" + scope).statusCode()).isEqualTo(404);
	}

	@Test
	void anonymousClientsAndQuotedKeysAreHashedAsTheFilterDoes() {
		String key = newKey();
		this.http.post("/items/3", "\"" + key + "\"", "{}");
		HttpResponse<String> found = this.http
			.get("/actuator/idempotency?method=post&route=" + encode("/items/{id}") + "&key=" + encode(key));
		assertThat(found.statusCode()).isEqualTo(200);
		assertThat(JSON.readTree(found.body()).get("scope").stringValue())
			.isEqualTo(scope(DefaultClientIdentityResolver.ANONYMOUS, "/items/{id}", key));
	}

	@Test
	void unknownRecordIsNotFoundAndDeletingItSaysSo() {
		String unknown = scope(DefaultClientIdentityResolver.ANONYMOUS, "/orders", newKey());
		assertThat(this.http.get("/actuator/idempotency/" + unknown).statusCode()).isEqualTo(404);
		HttpResponse<String> deleted = this.http.delete("/actuator/idempotency/" + unknown);
		assertThat(deleted.statusCode()).isEqualTo(200);
		assertThat(JSON.readTree(deleted.body()).get("deleted").booleanValue()).isFalse();
	}

	@Test
	void malformedLookupsAreBadRequests() {
		assertThat(this.http.get("/actuator/idempotency/not-a-scope").statusCode()).isEqualTo(400);
		assertThat(this.http.get("/actuator/idempotency?method=POST&route=/orders&key=a,b").statusCode())
			.isEqualTo(400);
		assertThat(this.http.get("/actuator/idempotency?method=POST&route=/orders&key=k&principal=p&client=c")
			.statusCode()).isEqualTo(400);
		assertThat(this.http.get("/actuator/idempotency?method=POST&route=/orders").statusCode()).isEqualTo(400);
	}

	private double decisions(String outcome, String route) {
		Counter counter = this.meters.find(MicrometerIdempotencyListener.DECISIONS)
			.tags("outcome", outcome, "endpoint", route)
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	private static String scope(String identity, String route, String key) {
		return IdempotencyScope.of(identity, "POST", route, IdempotencyKey.parse(List.of(key), 255)).hash();
	}

	private static String encode(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8);
	}

	private static String newKey() {
		return UUID.randomUUID().toString();
	}

}
