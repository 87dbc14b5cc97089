package dev.modelgate.idempotency.micrometer;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.modelgate.idempotency.core.IdempotencyKey;
import dev.modelgate.idempotency.core.IdempotencyScope;
import dev.modelgate.idempotency.testsupport.ObservabilityTest;
import dev.modelgate.idempotency.testsupport.TestHttp;
import dev.modelgate.idempotency.web.servlet.DefaultClientIdentityResolver;
import dev.modelgate.idempotency.web.testapp.Invocations;
import dev.modelgate.idempotency.web.testapp.StoreObservations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The meters after real requests to a real server: decisions by outcome and route pattern, first
 * executions and replays timed apart, a timer per store operation, the gauge of leases held, and
 * store observations nested in the request's observation (where a tracing bridge puts the spans).
 */
@ObservabilityTest
class IdempotencyMetricsHttpTests {

	@LocalServerPort
	private int port;

	@Autowired
	private MeterRegistry registry;

	@Autowired
	private Invocations invocations;

	@Autowired
	private StoreObservations storeObservations;

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
	void decisionsAreCountedByOutcomeUnderTheRoutePattern() {
		String route = "/items/{id}";
		double acquired = decisions("acquired", route);
		double recorded = decisions("recorded", route);
		double replayed = decisions("replayed", route);
		double mismatch = decisions("mismatch", route);
		double invalid = decisions("invalid_key", route);
		double bypassed = decisions("bypassed", route);
		String key = newKey();

		assertThat(this.http.post("/items/7", key, "{}").statusCode()).isEqualTo(200);
		assertThat(this.http.post("/items/7", key, "{}").headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.http.post("/items/7", key, "{\"other\":1}").statusCode()).isEqualTo(422);
		assertThat(this.http.post("/items/7", "a,b", "{}").statusCode()).isEqualTo(400);
		assertThat(this.http.post("/items/7", null, "{}").statusCode()).isEqualTo(200);

		assertThat(decisions("acquired", route)).isEqualTo(acquired + 1);
		assertThat(decisions("recorded", route)).isEqualTo(recorded + 1);
		assertThat(decisions("replayed", route)).isEqualTo(replayed + 1);
		assertThat(decisions("mismatch", route)).isEqualTo(mismatch + 1);
		assertThat(decisions("invalid_key", route)).isEqualTo(invalid + 1);
		assertThat(decisions("bypassed", route)).isEqualTo(bypassed + 1);
		assertThat(this.registry.find(MicrometerIdempotencyListener.DECISIONS).tag("endpoint", "/items/7").counters())
			.as("the raw path never becomes a tag").isEmpty();
	}

	@Test
	void refusalsBeforeTheStoreAreCounted() {
		double missing = decisions("missing_key", "/required");
		double tooLarge = decisions("too_large", "/orders");
		assertThat(this.http.post("/required", null, "{}").statusCode()).isEqualTo(400);
		assertThat(this.http.post("/orders", newKey(), "{\"text\":\"" + "x".repeat(2048) + "\"}").statusCode())
			.isEqualTo(413);
		assertThat(decisions("missing_key", "/required")).isEqualTo(missing + 1);
		assertThat(decisions("too_large", "/orders")).isEqualTo(tooLarge + 1);
	}

	@Test
	void releasedResponsesAreCounted() {
		double released = decisions("released", "/status/{code}");
		assertThat(this.http.post("/status/503", newKey(), "{}").statusCode()).isEqualTo(503);
		assertThat(this.http.post("/status/429", newKey(), "{}").statusCode()).isEqualTo(429);
		assertThat(decisions("released", "/status/{code}")).isEqualTo(released + 2);
	}

	@Test
	void firstExecutionsAndReplaysAreTimedApart() {
		long first = requests("first", "/orders").count();
		long replays = requests("replay", "/orders").count();
		double replayTime = requests("replay", "/orders").totalTime(TimeUnit.NANOSECONDS);
		String key = newKey();
		this.http.post("/orders", key, "{\"item\":\"book\"}");
		this.http.post("/orders", key, "{\"item\":\"book\"}");
		this.http.post("/orders", key, "{\"item\":\"book\"}");
		this.http.post("/orders", newKey(), "{\"item\":\"pen\"}");

		// Timed once the response is written, so the client may see it a moment before the timer does.
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(requests("first", "/orders").count()).isEqualTo(first + 2));
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(requests("replay", "/orders").count()).isEqualTo(replays + 2));
		assertThat(requests("replay", "/orders").totalTime(TimeUnit.NANOSECONDS)).isGreaterThan(replayTime);
	}

	@Test
	void everyStoreOperationIsTimedWithItsResult() {
		long acquired = storeCalls("begin", "acquired");
		long completedBegins = storeCalls("begin", "completed");
		long completes = storeCalls("complete", "ok");
		long releases = storeCalls("release", "ok");
		String key = newKey();
		this.http.post("/orders", key, "{}");
		this.http.post("/orders", key, "{}");
		this.http.post("/status/500", newKey(), "{}");

		assertThat(storeCalls("begin", "acquired")).isEqualTo(acquired + 2);
		assertThat(storeCalls("begin", "completed")).isEqualTo(completedBegins + 1);
		assertThat(storeCalls("complete", "ok")).isEqualTo(completes + 1);
		assertThat(storeCalls("release", "ok")).isEqualTo(releases + 1);
	}

	@Test
	void storeCallsAreObservedInsideTheRequestsObservation() {
		String key = newKey();
		this.http.post("/orders", key, "{}", "Authorization", "Bearer tracing");
		String scope = IdempotencyScope.of(DefaultClientIdentityResolver.headerIdentity("Bearer tracing"), "POST",
				"/orders", IdempotencyKey.parse(List.of(key), 255))
			.hash();

		assertThat(this.storeObservations.forScope(scope)).extracting(StoreObservations.Recorded::name)
			.containsExactly("idempotency begin", "idempotency complete");
		assertThat(this.storeObservations.forScope(scope)).extracting(StoreObservations.Recorded::parent)
			.containsOnly("http.server.requests");
	}

	@Test
	void streamStoreCallsFromTheGenerationThreadAreObservedInsideTheRequestsObservation() throws Exception {
		String key = newKey();
		this.invocations.close();
		ExecutorService client = Executors.newSingleThreadExecutor();
		try {
			Future<HttpResponse<String>> stream = client.submit(() -> this.http.post("/events?count=5&gateAfter=2", key,
					"{}", "Authorization", "Bearer tracing-stream"));
			await().atMost(Duration.ofSeconds(10)).until(() -> this.invocations.count("events-sent") == 2);
			this.invocations.open();
			assertThat(stream.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		}
		finally {
			client.shutdownNow();
		}
		String scope = IdempotencyScope.of(DefaultClientIdentityResolver.headerIdentity("Bearer tracing-stream"), "POST",
				"/events", IdempotencyKey.parse(List.of(key), 255))
			.hash();

		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.storeObservations.forScope(scope))
				.extracting(StoreObservations.Recorded::name)
				.contains("idempotency completeStream"));
		assertThat(this.storeObservations.forScope(scope)).extracting(StoreObservations.Recorded::name)
			.contains("idempotency begin", "idempotency openStream", "idempotency appendEvents");
		assertThat(this.storeObservations.forScope(scope)).extracting(StoreObservations.Recorded::parent)
			.as("one trace per stream, the appends sent from the handler's thread included")
			.containsOnly("http.server.requests");
	}

	@Test
	void leasesHeldAreGaugedWhileHandlersRun() throws Exception {
		Gauge leases = this.registry.get(IdempotencyLeaseMetrics.LEASES_HELD).gauge();
		double idle = leases.value();
		this.invocations.close();
		ExecutorService client = Executors.newSingleThreadExecutor();
		try {
			Future<HttpResponse<String>> slow = client.submit(() -> this.http.post("/slow", newKey(), "{}"));
			await().atMost(Duration.ofSeconds(10)).until(() -> leases.value() == idle + 1);
			this.invocations.open();
			assertThat(slow.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
			await().atMost(Duration.ofSeconds(10)).until(() -> leases.value() == idle);
		}
		finally {
			client.shutdownNow();
		}
	}

	@Test
	void duplicateOfARunningRequestIsCountedInProgress() throws Exception {
		double inProgress = decisions("in_progress", "/slow");
		this.invocations.close();
		String key = newKey();
		ExecutorService client = Executors.newSingleThreadExecutor();
		try {
			Future<HttpResponse<String>> slow = client.submit(() -> this.http.post("/slow", key, "{}"));
			await().atMost(Duration.ofSeconds(10)).until(() -> this.invocations.count("slow") == 1);
			assertThat(this.http.post("/slow", key, "{}").statusCode()).isEqualTo(409);
			this.invocations.open();
			assertThat(slow.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		}
		finally {
			client.shutdownNow();
		}
		assertThat(decisions("in_progress", "/slow")).isEqualTo(inProgress + 1);
	}

	private double decisions(String outcome, String route) {
		Counter counter = this.registry.find(MicrometerIdempotencyListener.DECISIONS)
			.tags("outcome", outcome, "endpoint", route, "method", "POST")
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	/** The timer, registered now if no request of its kind has been timed yet (a timer with no records). */
	private Timer requests(String kind, String route) {
		return Timer.builder(MicrometerIdempotencyListener.REQUESTS)
			.tags("kind", kind, "endpoint", route, "method", "POST")
			.register(this.registry);
	}

	private long storeCalls(String operation, String result) {
		Timer timer = this.registry.find(DefaultIdempotencyStoreObservationConvention.NAME)
			.tags("operation", operation, "result", result, "store", "memory", "error", "none")
			.timer();
		return (timer != null) ? timer.count() : 0;
	}

	private static String newKey() {
		return UUID.randomUUID().toString();
	}

}
