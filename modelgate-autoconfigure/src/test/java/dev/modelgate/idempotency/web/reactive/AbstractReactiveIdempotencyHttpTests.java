package dev.modelgate.idempotency.web.reactive;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import reactor.blockhound.BlockHound;
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
import dev.modelgate.idempotency.web.reactive.ReactiveTestApplication.StoreCalls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The HTTP contract of the reactive filter, over real HTTP on a real Netty server, with BlockHound
 * watching every non-blocking thread (a blocking call there fails the request that made it);
 * subclasses choose the store.
 */
@Tag("boot")
@SpringBootTest(classes = ReactiveTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "modelgate.idempotency.max-request-size=8KB",
				"modelgate.idempotency.max-response-size=8KB",
				"modelgate.idempotency.client-identity-header=Authorization",
				"modelgate.idempotency.wait-timeout=10s", "modelgate.idempotency.routes[0].method=POST",
				"modelgate.idempotency.routes[0].path=/functional/orders/{id}",
				"modelgate.idempotency.stream.max-followers=2",
				// Generous, so that a loaded machine does not turn a slow store call into a 503.
				"modelgate.idempotency.operation-timeout=10s" })
abstract class AbstractReactiveIdempotencyHttpTests {

	private static final String DELAYED_WORK_QUEUE = ScheduledThreadPoolExecutor.class.getName() + "$DelayedWorkQueue";

	static {
		installBlockHound();
	}

	/** Watches every non-blocking thread; the reactive HTTP suites call it once each, the first one installs. */
	static void installBlockHound() {
		// Handing a call to the store pool takes the pool queue's lock for a moment, as handing a
		// task to Reactor's own schedulers does (Reactor's integration allows that one): a lock held
		// for a queue operation, not a wait for the store. Lettuce takes its endpoint's writer lock
		// (SharedLock, a ReentrantLock) for the moment it queues a command: two threads sending at
		// once make one park briefly there, which is not a wait for Redis either.
		// install(...) also applies the integrations found on the class path (Reactor's and Netty's,
		// which mark their event-loop threads as non-blocking); builder() alone would watch no thread.
		BlockHound.install((builder) -> builder.allowBlockingCallsInside(ThreadPoolExecutor.class.getName(), "execute")
			.allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", "incrementWriters")
			.allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", "doExclusive")
			// The asynchronous Redis store and the adapter over the blocking stores bound each call with
			// CompletableFuture.orTimeout, whose timer task the JDK queues, and removes once the answer
			// came, under its scheduler's queue lock: taken for a moment, contended now and then, never
			// a wait for the store.
			.allowBlockingCallsInside(DELAYED_WORK_QUEUE, "offer")
			.allowBlockingCallsInside(DELAYED_WORK_QUEUE, "remove")
			// Netty 4.2's adaptive allocator takes a StampedLock for the moment it adds a magazine
			// under contention (seen in CI, encoding a 409 on a timer thread): not a wait for I/O.
			.allowBlockingCallsInside("io.netty.buffer.AdaptivePoolingAllocator$MagazineGroup", "tryExpandMagazines"));
	}

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String CLIENT = "Bearer client-a";

	@LocalServerPort
	private int port;

	@Autowired
	private Runs runs;

	@Autowired
	private StoreCalls storeCalls;

	@Autowired
	private MeterRegistry registry;

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
	}

	private static String newKey() {
		return UUID.randomUUID().toString();
	}

	private EntityExchangeResult<byte[]> post(String uri, String key, String body) {
		WebTestClient.RequestBodySpec request = this.client.post()
			.uri(uri)
			.header("Authorization", CLIENT)
			.contentType(MediaType.APPLICATION_JSON);
		if (key != null) {
			request.header("Idempotency-Key", key);
		}
		return request.bodyValue(body).exchange().expectBody().returnResult();
	}

	private static int status(EntityExchangeResult<byte[]> result) {
		return result.getStatus().value();
	}

	private static JsonNode json(EntityExchangeResult<byte[]> result) {
		return JSON.readTree(result.getResponseBody());
	}

	private static String text(EntityExchangeResult<byte[]> result) {
		byte[] body = result.getResponseBody();
		return (body != null) ? new String(body) : "";
	}

	private static void assertProblem(EntityExchangeResult<byte[]> result, int status, String code) {
		assertThat(status(result)).as(text(result)).isEqualTo(status);
		assertThat(result.getResponseHeaders().getContentType()).hasToString("application/problem+json");
		assertThat(result.getResponseHeaders().getCacheControl()).isEqualTo("no-store");
		JsonNode problem = json(result);
		assertThat(problem.get("code").stringValue()).isEqualTo(code);
		assertThat(problem.get("type").stringValue())
			.isEqualTo("https://modelgate.dev/problems/" + code.replace('_', '-'));
		assertThat(problem.get("status").intValue()).isEqualTo(status);
	}

	@Test
	void blockHoundFailsABlockingCallOnAnEventLoopThread() {
		EntityExchangeResult<byte[]> result = this.client.get()
			.uri("/blocking")
			.exchange()
			.expectBody()
			.returnResult();
		assertThat(status(result)).isEqualTo(500);
	}

	@Test
	void replaysStoredResponseWithoutRunningHandler() {
		String key = newKey();
		EntityExchangeResult<byte[]> first = post("/orders", key, "{\"item\":\"book\",\"quantity\":1}");
		EntityExchangeResult<byte[]> second = post("/orders", key, "{\"item\":\"book\",\"quantity\":1}");
		assertThat(status(first)).as(text(first)).isEqualTo(201);
		assertThat(first.getResponseHeaders().getFirst("Idempotent-Replayed")).isNull();
		assertThat(status(second)).isEqualTo(201);
		assertThat(second.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(second.getResponseBody()).isEqualTo(first.getResponseBody());
		assertThat(second.getResponseHeaders().getLocation()).isEqualTo(first.getResponseHeaders().getLocation());
		assertThat(second.getResponseHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_JSON);
		assertThat(second.getResponseHeaders().getFirst("X-Internal")).isNull();
		assertThat(this.runs.of("orders")).isEqualTo(1);
	}

	@Test
	void sameJsonWithOtherKeyOrderAndWhiteSpaceIsTheSameRequest() {
		String key = newKey();
		post("/orders", key, "{\"item\":\"book\",\"quantity\":1}");
		EntityExchangeResult<byte[]> second = post("/orders", key, "{ \"quantity\" : 1.0, \"item\" : \"book\" }");
		assertThat(second.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(this.runs.of("orders")).isEqualTo(1);
	}

	@Test
	void ignoredFieldsAreLeftOutOfTheFingerprint() {
		String key = newKey();
		post("/tagged-orders", key, "{\"item\":\"book\",\"requestId\":\"1\"}");
		EntityExchangeResult<byte[]> second = post("/tagged-orders", key, "{\"item\":\"book\",\"requestId\":\"2\"}");
		assertThat(second.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(this.runs.of("tagged-orders")).isEqualTo(1);
	}

	/**
	 * Section 13: once the response expired (ttl 1s) the key stays spent for its retention (3s): a
	 * retry is answered 410 with the original status, completion time and Location, and does not
	 * run; another body is still 422; after the retention the key runs again.
	 */
	@Test
	void retryAfterTheResponseExpiredIsToldTheKeyIsSpentAndRunsAgainOnlyAfterTheRetention() {
		String key = newKey();
		Instant before = Instant.now();
		assertThat(status(post("/spent-orders", key, "{\"item\":\"book\"}"))).isEqualTo(201);
		EntityExchangeResult<byte[]> spent = await("the response to expire").atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> post("/spent-orders", key, "{\"item\":\"book\"}"), (retry) -> {
				assertThat(status(retry)).as(text(retry)).isIn(201, 410);
				return status(retry) == 410;
			});
		assertProblem(spent, 410, "idempotency_key_spent");
		JsonNode problem = json(spent);
		assertThat(problem.get("original_status").intValue()).isEqualTo(201);
		assertThat(Instant.parse(problem.get("completed_at").stringValue())).isBetween(before.minusSeconds(5),
				Instant.now().plusSeconds(5));
		assertThat(problem.get("resource").stringValue()).isEqualTo("/orders/1");
		assertThat(this.runs.of("spent-orders")).isEqualTo(1);
		assertProblem(post("/spent-orders", key, "{\"item\":\"pen\"}"), 422, "idempotency_key_reused");
		EntityExchangeResult<byte[]> rerun = await("the retention to end").atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> post("/spent-orders", key, "{\"item\":\"book\"}"), (retry) -> {
				assertThat(status(retry)).as(text(retry)).isIn(201, 410);
				return status(retry) == 201;
			});
		assertThat(rerun.getResponseHeaders().getFirst("Idempotent-Replayed")).isNull();
		assertThat(json(rerun).get("run").intValue()).isEqualTo(2);
		assertThat(this.runs.of("spent-orders")).isEqualTo(2);
	}

	@Test
	void keyReusedWithAnotherBodyIsRefused() {
		String key = newKey();
		post("/orders", key, "{\"item\":\"book\"}");
		assertProblem(post("/orders", key, "{\"item\":\"pen\"}"), 422, "idempotency_key_reused");
		assertThat(this.runs.of("orders")).isEqualTo(1);
	}

	@Test
	void keyReusedOnAnotherPathOfTheSameRouteIsRefused() {
		String key = newKey();
		assertThat(status(post("/items/7", key, "{}"))).isEqualTo(200);
		assertProblem(post("/items/8", key, "{}"), 422, "idempotency_key_reused");
		assertThat(this.runs.of("items")).isEqualTo(1);
	}

	@Test
	void invalidKeyIsRefused() {
		assertProblem(post("/orders", "has space", "{}"), 400, "idempotency_key_invalid");
		assertThat(this.runs.of("orders")).isZero();
	}

	@Test
	void quotedKeyIsTheSameKeyAsItsPlainToken() {
		String key = newKey();
		post("/orders", key, "{}");
		EntityExchangeResult<byte[]> second = post("/orders", "\"" + key + "\"", "{}");
		assertThat(second.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
	}

	@Test
	void requiredKeyMissingIsRefused() {
		assertProblem(post("/required-orders", null, "{}"), 400, "idempotency_key_missing");
		assertThat(this.runs.of("required-orders")).isZero();
	}

	@Test
	void requestWithoutKeyRunsEveryTime() {
		post("/orders", null, "{}");
		EntityExchangeResult<byte[]> second = post("/orders", null, "{}");
		assertThat(second.getResponseHeaders().getFirst("Idempotent-Replayed")).isNull();
		assertThat(this.runs.of("orders")).isEqualTo(2);
	}

	@Test
	void unannotatedRequestWithKeyCallsNoStore() {
		int before = this.storeCalls.get();
		EntityExchangeResult<byte[]> first = post("/plain", newKey(), "{\"a\":1}");
		assertThat(text(first)).isEqualTo("plain 7");
		assertThat(this.storeCalls.get()).isEqualTo(before);
	}

	@Test
	void clientsWithOtherIdentitiesDoNotShareKeys() {
		String key = newKey();
		post("/orders", key, "{}");
		EntityExchangeResult<byte[]> other = this.client.post()
			.uri("/orders")
			.header("Authorization", "Bearer client-b")
			.header("Idempotency-Key", key)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue("{}")
			.exchange()
			.expectBody()
			.returnResult();
		assertThat(other.getResponseHeaders().getFirst("Idempotent-Replayed")).isNull();
		assertThat(this.runs.of("orders")).isEqualTo(2);
	}

	@Test
	void keyedRequestWithoutClientIdentityIsRefused() {
		EntityExchangeResult<byte[]> result = this.client.post()
			.uri("/orders")
			.header("Idempotency-Key", newKey())
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue("{}")
			.exchange()
			.expectBody()
			.returnResult();
		assertProblem(result, 400, "idempotency_client_unidentified");
		assertThat(this.runs.of("orders")).isZero();
	}

	@Test
	void bodyOverMaxRequestSizeIsRefusedBeforeTheHandlerRuns() {
		String body = "{\"text\":\"" + "x".repeat(9000) + "\"}";
		assertProblem(post("/orders", newKey(), body), 413, "idempotency_request_too_large");
		assertThat(this.runs.of("orders")).isZero();
	}

	@Test
	void serverErrorAndTryAgainStatusesReleaseTheKey() {
		for (int status : new int[] { 503, 429, 409 }) {
			String key = newKey();
			EntityExchangeResult<byte[]> first = post("/statuses?status=" + status, key, "{}");
			EntityExchangeResult<byte[]> second = post("/statuses?status=" + status, key, "{}");
			assertThat(status(first)).isEqualTo(status);
			assertThat(second.getResponseHeaders().getFirst("Idempotent-Replayed")).as("status %d", status).isNull();
		}
		assertThat(this.runs.of("statuses")).isEqualTo(6);
	}

	@Test
	void clientErrorIsRecordedAndReplayed() {
		String key = newKey();
		post("/statuses?status=404", key, "{}");
		EntityExchangeResult<byte[]> second = post("/statuses?status=404", key, "{}");
		assertThat(status(second)).isEqualTo(404);
		assertThat(second.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(this.runs.of("statuses")).isEqualTo(1);
	}

	@Test
	void handlerErrorReleasesTheKey() {
		String key = newKey();
		assertThat(status(post("/throwing", key, "{}"))).isEqualTo(500);
		assertThat(status(post("/throwing", key, "{}"))).isEqualTo(500);
		assertThat(this.runs.of("throwing")).isEqualTo(2);
	}

	@Test
	void handlerFailingWithAnErrorIsAnswered500AndReleasesTheKey() {
		// An Error from the handler's Mono (BlockHound's, for a blocking call on an event loop) and one
		// thrown before it returns: neither may leave the exchange open or the key held.
		for (String path : List.of("/erroring", "/erroring?thrown=true")) {
			String key = newKey();
			assertThat(status(post(path, key, "{}"))).isEqualTo(500);
			assertThat(status(post(path, key, "{}"))).isEqualTo(500);
		}
		assertThat(this.runs.of("erroring")).isEqualTo(4);
	}

	@Test
	void responseOverMaxResponseSizeIsDeliveredNotStoredAndRetriesGet410() {
		String key = newKey();
		EntityExchangeResult<byte[]> first = post("/large?size=20000", key, "{}");
		assertThat(status(first)).isEqualTo(200);
		assertThat(first.getResponseBody()).hasSize(20000);
		assertProblem(post("/large?size=20000", key, "{}"), 410, "idempotency_result_unavailable");
		assertThat(this.runs.of("large")).isEqualTo(1);
	}

	@Test
	void responseWithoutBodyIsRecordedAndReplayed() {
		String key = newKey();
		assertThat(status(post("/accepted", key, "{}"))).isEqualTo(202);
		EntityExchangeResult<byte[]> second = post("/accepted", key, "{}");
		assertThat(status(second)).isEqualTo(202);
		assertThat(second.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(this.runs.of("accepted")).isEqualTo(1);
	}

	@Test
	void duplicateWhileTheFirstRunsIsRefusedWithRetryAfter() throws Exception {
		String key = newKey();
		CompletableFuture<EntityExchangeResult<byte[]>> first = CompletableFuture
			.supplyAsync(() -> post("/orders?holdMillis=1500", key, "{}"));
		awaitRuns("orders", 1);
		EntityExchangeResult<byte[]> duplicate = post("/orders?holdMillis=1500", key, "{}");
		assertProblem(duplicate, 409, "idempotency_request_in_progress");
		assertThat(duplicate.getResponseHeaders().getFirst("Retry-After")).isEqualTo("1");
		// No status-path: no status resource to point to.
		assertThat(duplicate.getResponseHeaders().getLocation()).isNull();
		assertThat(status(first.get(30, TimeUnit.SECONDS))).isEqualTo(201);
		assertThat(this.runs.of("orders")).isEqualTo(1);
	}

	@Test
	void heartbeatKeepsTheLeaseOfAHandlerThatOutlivesIt() throws Exception {
		String key = newKey();
		int renewalsBefore = this.storeCalls.renewals();
		CompletableFuture<EntityExchangeResult<byte[]>> first = CompletableFuture
			.supplyAsync(() -> post("/short-lease-orders?holdMillis=3500", key, "{}"));
		awaitRuns("short-lease-orders", 1);
		// A heartbeat every third of the one-second lease: the fourth renewal comes after the lease
		// the handler began with ran out, so without renewals the record would be gone and the
		// duplicate would run.
		await().atMost(Duration.ofSeconds(30)).until(() -> this.storeCalls.renewals() >= renewalsBefore + 4);
		assertProblem(post("/short-lease-orders?holdMillis=3500", key, "{}"), 409, "idempotency_request_in_progress");
		assertThat(status(first.get(30, TimeUnit.SECONDS))).isEqualTo(201);
		assertThat(this.runs.of("short-lease-orders")).isEqualTo(1);
	}

	@Test
	void concurrentDuplicatesRunTheHandlerOnce() throws Exception {
		List<EntityExchangeResult<byte[]>> results = concurrently(20, "/orders?holdMillis=500", newKey());
		assertThat(this.runs.of("orders")).isEqualTo(1);
		long first = results.stream()
			.filter((result) -> status(result) == 201 && result.getResponseHeaders().getFirst("Idempotent-Replayed") == null)
			.count();
		assertThat(first).isEqualTo(1);
		assertThat(results).allSatisfy((result) -> assertThat(status(result)).as(text(result)).isIn(201, 409));
	}

	@Test
	void concurrentDuplicatesThatWaitAllGetTheOneResponse() throws Exception {
		List<EntityExchangeResult<byte[]>> results = concurrently(20, "/waiting-orders?holdMillis=500", newKey());
		assertThat(this.runs.of("waiting-orders")).isEqualTo(1);
		byte[] body = results.get(0).getResponseBody();
		assertThat(results).allSatisfy((result) -> {
			assertThat(status(result)).as(text(result)).isEqualTo(201);
			assertThat(result.getResponseBody()).isEqualTo(body);
		});
	}

	@Test
	void functionalRouteDeclaredByConfigurationIsIdempotent() {
		String key = newKey();
		EntityExchangeResult<byte[]> first = post("/functional/orders/7", key, "{\"item\":\"book\"}");
		EntityExchangeResult<byte[]> second = post("/functional/orders/7", key, "{\"item\":\"book\"}");
		assertThat(status(first)).as(text(first)).isEqualTo(201);
		assertThat(second.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(second.getResponseBody()).isEqualTo(first.getResponseBody());
		assertProblem(post("/functional/orders/8", key, "{\"item\":\"book\"}"), 422, "idempotency_key_reused");
		assertThat(this.runs.of("functional")).isEqualTo(1);
	}

	@Test
	void multipartRetryWithAnotherBoundaryIsTheSameRequest() {
		String key = newKey();
		EntityExchangeResult<byte[]> first = upload(key, "boundary-one", "hello");
		EntityExchangeResult<byte[]> second = upload(key, "boundary-two", "hello");
		assertThat(status(first)).as(text(first)).isEqualTo(200);
		assertThat(text(first)).isEqualTo("run 1 parts [note, file]");
		assertThat(second.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertProblem(upload(key, "boundary-three", "other"), 422, "idempotency_key_reused");
		assertThat(this.runs.of("uploads")).isEqualTo(1);
	}

	@Test
	void formHandlerReadsTheFormOfTheBufferedBody() {
		String key = newKey();
		EntityExchangeResult<byte[]> first = form(key, "item=book&quantity=1");
		// A form body is compared as its bytes (only JSON is compared by meaning), as on the servlet side.
		EntityExchangeResult<byte[]> second = form(key, "item=book&quantity=1");
		assertThat(text(first)).isEqualTo("run 1 item book");
		assertThat(second.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(this.runs.of("forms")).isEqualTo(1);
	}

	private EntityExchangeResult<byte[]> form(String key, String body) {
		return this.client.post()
			.uri("/forms")
			.header("Authorization", CLIENT)
			.header("Idempotency-Key", key)
			.contentType(MediaType.APPLICATION_FORM_URLENCODED)
			.bodyValue(body)
			.exchange()
			.expectBody()
			.returnResult();
	}

	private EntityExchangeResult<byte[]> upload(String key, String boundary, String content) {
		String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nfirst\r\n--"
				+ boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n"
				+ "Content-Type: text/plain\r\n\r\n" + content + "\r\n--" + boundary + "--\r\n";
		return this.client.post()
			.uri("/uploads")
			.header("Authorization", CLIENT)
			.header("Idempotency-Key", key)
			.contentType(MediaType.parseMediaType("multipart/form-data; boundary=" + boundary))
			.bodyValue(body)
			.exchange()
			.expectBody()
			.returnResult();
	}

	private EntityExchangeResult<byte[]> events(String query, String key, String lastEventId) {
		WebTestClient.RequestBodySpec request = this.client.post()
			.uri("/events?" + query)
			.header("Authorization", CLIENT)
			.header("Idempotency-Key", key)
			.accept(MediaType.TEXT_EVENT_STREAM)
			.contentType(MediaType.APPLICATION_JSON);
		if (lastEventId != null) {
			request.header("Last-Event-ID", lastEventId);
		}
		return request.bodyValue("{}").exchange().expectBody().returnResult();
	}

	@Test
	void streamIsRecordedEventByEventWithIdsAndReplayedAfterItsEnd() {
		String key = newKey();
		EntityExchangeResult<byte[]> first = events("count=3", key, null);
		assertThat(status(first)).isEqualTo(200);
		assertThat(text(first)).contains("id: 1.", "id: 2.", "id: 3.", "data:run 1 chunk 3");
		EntityExchangeResult<byte[]> replay = events("count=3", key, null);
		assertThat(replay.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(replay.getResponseHeaders().getContentType().isCompatibleWith(MediaType.TEXT_EVENT_STREAM)).isTrue();
		assertThat(text(replay)).isEqualTo(text(first));
		assertThat(this.runs.of("events")).isEqualTo(1);
	}

	@Test
	void lastEventIdResumesAfterThatEvent() {
		String key = newKey();
		events("count=3", key, null);
		String resumed = text(events("count=3", key, "2"));
		assertThat(resumed).contains("id: 3.").doesNotContain("id: 1.", "id: 2.");
		assertThat(this.runs.of("events")).isEqualTo(1);
	}

	/** An id names its attempt: a {@code Last-Event-ID} of another attempt is not resumed with this one's events. */
	@Test
	void lastEventIdOfAnotherAttemptIsNotResumedWithThisOnesEvents() {
		String key = newKey();
		String first = text(events("count=3", key, null));
		String tag = first.substring(first.indexOf("id: 1.") + 6, first.indexOf("id: 1.") + 14);
		String other = tag.equals("AAAAAAAA") ? "BBBBBBBB" : "AAAAAAAA";

		String sameAttempt = text(events("count=3", key, "1." + tag));
		String otherAttempt = text(events("count=3", key, "1." + other));

		assertThat(sameAttempt).contains("id: 2." + tag, "id: 3." + tag).doesNotContain("id: 1.");
		assertThat(otherAttempt).startsWith("event: error\n").contains("idempotency_stream_interrupted")
			.doesNotContain("data:run");
		assertThat(this.runs.of("events")).isEqualTo(1);
	}

	@Test
	void duplicateAttachesToTheLiveStreamAndGetsEveryEvent() throws Exception {
		String key = newKey();
		CompletableFuture<EntityExchangeResult<byte[]>> first = CompletableFuture
			.supplyAsync(() -> events("count=5&gapMillis=300", key, null));
		awaitRuns("events", 1);
		EntityExchangeResult<byte[]> attached = events("count=5&gapMillis=300", key, null);
		assertThat(attached.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(text(attached)).isEqualTo(text(first.get(30, TimeUnit.SECONDS)));
		assertThat(text(attached)).contains("id: 5.");
		assertThat(this.runs.of("events")).isEqualTo(1);
	}

	/** Two duplicates follow a live stream (stream.max-followers=2); the third is answered 409 until one leaves. */
	@Test
	void duplicatePastTheFollowerCapIsAnswered409() throws Exception {
		String key = newKey();
		double attachedBefore = attachedDecisions();
		ExecutorService clients = Executors.newFixedThreadPool(3);
		try {
			Future<EntityExchangeResult<byte[]>> first = clients.submit(() -> events("count=5&gapMillis=600", key, null));
			awaitRuns("events", 1);
			List<Future<EntityExchangeResult<byte[]>>> followers = new ArrayList<>();
			for (int i = 0; i < 2; i++) {
				followers.add(clients.submit(() -> events("count=5&gapMillis=600", key, null)));
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> attachedDecisions() == attachedBefore + 2);
			EntityExchangeResult<byte[]> third = events("count=5&gapMillis=600", key, null);
			assertThat(followers).as("followers still attached when the third came").noneMatch(Future::isDone);
			String whole = text(first.get(30, TimeUnit.SECONDS));

			assertThat(status(third)).isEqualTo(409);
			assertThat(third.getResponseHeaders().getFirst("Retry-After")).isNotNull();
			assertThat(text(third)).contains("idempotency_request_in_progress");
			for (Future<EntityExchangeResult<byte[]>> follower : followers) {
				assertThat(text(follower.get(30, TimeUnit.SECONDS))).isEqualTo(whole);
			}
			assertThat(this.runs.of("events")).isEqualTo(1);
			// The followers left: the retry after the end is a replay, not one too many.
			assertThat(status(events("count=5&gapMillis=600", key, null))).isEqualTo(200);
		}
		finally {
			clients.shutdownNow();
		}
	}

	private double attachedDecisions() {
		Counter counter = this.registry.find(MicrometerIdempotencyListener.DECISIONS)
			.tags("outcome", "attached", "endpoint", "/events", "method", "POST")
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	/** A client identity header sent twice identifies nobody: 400, never its first value. */
	@Test
	void identityHeaderSentTwiceIsRefusedNotResolvedToItsFirstValue() {
		String key = newKey();
		EntityExchangeResult<byte[]> spoofed = this.client.post()
			.uri("/orders")
			.header("Authorization", CLIENT, "Bearer someone-else")
			.header("Idempotency-Key", key)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue("{\"item\":\"book\"}")
			.exchange()
			.expectBody()
			.returnResult();

		assertThat(status(spoofed)).isEqualTo(400);
		assertThat(text(spoofed)).contains("idempotency_client_ambiguous");
		assertThat(this.runs.of("orders")).isZero();
	}

	/**
	 * A retry that comes while the first request has not begun its stream (a model that thinks before
	 * its first token) and asks for {@code text/event-stream} waits for it, on a timer, and attaches.
	 */
	@Test
	void duplicateThatAsksForTheStreamBeforeItBeginsWaitsForItAndAttaches() throws Exception {
		String key = newKey();
		this.runs.close();
		int beginsBefore = this.storeCalls.begins();
		CompletableFuture<EntityExchangeResult<byte[]>> first = CompletableFuture
			.supplyAsync(() -> thinkingEvents(key, MediaType.TEXT_EVENT_STREAM));
		awaitRuns("thinking-events", 1);
		CompletableFuture<EntityExchangeResult<byte[]>> duplicate = CompletableFuture
			.supplyAsync(() -> thinkingEvents(key, MediaType.TEXT_EVENT_STREAM));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.storeCalls.begins() >= beginsBefore + 3);
		assertThat(duplicate).as("waiting for the stream to begin").isNotDone();
		this.runs.open();
		EntityExchangeResult<byte[]> firstResult = first.get(30, TimeUnit.SECONDS);
		EntityExchangeResult<byte[]> attached = duplicate.get(30, TimeUnit.SECONDS);

		assertThat(text(firstResult)).contains("id: 3.", "data:run 1 chunk 3");
		assertThat(status(attached)).isEqualTo(200);
		assertThat(attached.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(text(attached)).isEqualTo(text(firstResult));
		assertThat(this.runs.of("thinking-events")).isEqualTo(1);
	}

	/** A duplicate that does not ask for a stream keeps the 409 while the first has not begun its stream. */
	@Test
	void duplicateThatDoesNotAskForTheStreamIsAnswered409BeforeItBegins() throws Exception {
		String key = newKey();
		this.runs.close();
		CompletableFuture<EntityExchangeResult<byte[]>> first = CompletableFuture
			.supplyAsync(() -> thinkingEvents(key, MediaType.TEXT_EVENT_STREAM));
		awaitRuns("thinking-events", 1);
		EntityExchangeResult<byte[]> duplicate = thinkingEvents(key, MediaType.APPLICATION_JSON);
		this.runs.open();
		first.get(30, TimeUnit.SECONDS);

		assertThat(status(duplicate)).isEqualTo(409);
		assertThat(duplicate.getResponseHeaders().getFirst("Retry-After")).isNotNull();
		assertThat(this.runs.of("thinking-events")).isEqualTo(1);
	}

	private EntityExchangeResult<byte[]> thinkingEvents(String key, MediaType accept) {
		return this.client.post()
			.uri("/thinking-events?count=3")
			.header("Authorization", CLIENT)
			.header("Idempotency-Key", key)
			.accept(accept)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue("{}")
			.exchange()
			.expectBody()
			.returnResult();
	}

	@Test
	void generationGoesOnWhenItsClientLeavesAndIsReplayedWhole() throws Exception {
		String key = newKey();
		String firstEvent = this.client.post()
			.uri("/events?count=5&gapMillis=200")
			.header("Authorization", CLIENT)
			.header("Idempotency-Key", key)
			.accept(MediaType.TEXT_EVENT_STREAM)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue("{}")
			.exchange()
			.returnResult(String.class)
			.getResponseBody()
			.blockFirst(Duration.ofSeconds(30));
		assertThat(firstEvent).contains("run 1 chunk 1");
		awaitRuns("events-emitted", 5);
		String replayed = text(events("count=5&gapMillis=200", key, null));
		assertThat(replayed).contains("id: 5.", "data:run 1 chunk 5");
		assertThat(this.runs.of("events")).isEqualTo(1);
	}

	private List<EntityExchangeResult<byte[]>> concurrently(int requests, String uri, String key) throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(requests);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<EntityExchangeResult<byte[]>>> futures = new ArrayList<>();
			for (int i = 0; i < requests; i++) {
				futures.add(threads.submit(() -> {
					start.await();
					return post(uri, key, "{\"item\":\"book\"}");
				}));
			}
			start.countDown();
			List<EntityExchangeResult<byte[]>> results = new ArrayList<>();
			for (Future<EntityExchangeResult<byte[]>> future : futures) {
				results.add(future.get(60, TimeUnit.SECONDS));
			}
			return results;
		}
		finally {
			threads.shutdownNow();
		}
	}

	private void awaitRuns(String handler, int count) {
		await(handler + " ran " + count + " times").atMost(Duration.ofSeconds(30))
			.until(() -> this.runs.of(handler) >= count);
		assertThat(this.runs.of(handler)).isEqualTo(count);
	}
}
