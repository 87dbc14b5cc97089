package dev.modelgate.idempotency.web.servlet;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.modelgate.idempotency.core.internal.ByteChunks;
import dev.modelgate.idempotency.web.testapp.CountingStorePostProcessor;
import dev.modelgate.idempotency.web.testapp.Invocations;
import dev.modelgate.idempotency.web.testapp.TestApplication;

import static dev.modelgate.idempotency.web.servlet.HttpClientSupport.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every row of the contract's tables, over real HTTP on a real server; subclasses choose the store.
 */
@Tag("boot")
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.idempotency.max-request-size=64KB", "modelgate.idempotency.max-response-size=64KB",
				"modelgate.idempotency.client-identity-header=Authorization",
				"modelgate.idempotency.wait-timeout=10s",
				// Generous, so that a loaded CI machine does not turn a slow store call into a 503.
				"modelgate.idempotency.operation-timeout=10s" })
abstract class AbstractIdempotencyFilterHttpTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@LocalServerPort
	private int port;

	@Autowired
	private Invocations invocations;

	@Autowired
	private IdempotencyFilter filter;

	private HttpClientSupport http;

	@BeforeEach
	void setUp() {
		this.http = new HttpClientSupport(this.port);
		this.invocations.reset();
	}

	@AfterEach
	void openGate() {
		this.invocations.open();
	}

	private static String newKey() {
		return UUID.randomUUID().toString();
	}

	private static JsonNode json(HttpResponse<byte[]> response) {
		return JSON.readTree(response.body());
	}

	private static void assertProblem(HttpResponse<byte[]> response, int status, String code) {
		assertThat(response.statusCode()).as(text(response)).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
		JsonNode problem = json(response);
		assertThat(problem.get("code").stringValue()).isEqualTo(code);
		assertThat(problem.get("type").stringValue())
			.isEqualTo("https://modelgate.dev/problems/" + code.replace('_', '-'));
		assertThat(problem.get("status").intValue()).isEqualTo(status);
		assertThat(problem.get("title").stringValue()).isNotBlank();
		assertThat(problem.get("detail").stringValue()).isNotBlank();
	}

	@Test
	void replaysStoredResponseWithoutRunningHandler() {
		String key = newKey();
		HttpResponse<byte[]> first = this.http.postJson("/orders", key, "{\"item\":\"book\"}");
		HttpResponse<byte[]> second = this.http.postJson("/orders", key, "{\"item\":\"book\"}");

		assertThat(this.invocations.count("orders")).isEqualTo(1);
		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(second.statusCode()).isEqualTo(201);
		assertThat(second.body()).isEqualTo(first.body());
		assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(second.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(second.headers().firstValue("Location")).isEqualTo(first.headers().firstValue("Location"));
		assertThat(second.headers().firstValue("ETag")).isEqualTo(first.headers().firstValue("ETag"));
		assertThat(second.headers().firstValue("Content-Type")).isEqualTo(first.headers().firstValue("Content-Type"));
	}

	@Test
	void replayLeavesOutCookiesAndHeadersNotAllowListed() {
		String key = newKey();
		HttpResponse<byte[]> first = this.http.postJson("/orders", key, "{}");
		HttpResponse<byte[]> second = this.http.postJson("/orders", key, "{}");
		assertThat(first.headers().firstValue("Set-Cookie")).isPresent();
		assertThat(first.headers().firstValue("X-Not-Replayed")).isPresent();
		assertThat(second.headers().firstValue("Set-Cookie")).isEmpty();
		assertThat(second.headers().firstValue("X-Not-Replayed")).isEmpty();
	}

	@Test
	void binaryResponseIsReplayedByteForByte() {
		String key = newKey();
		HttpResponse<byte[]> first = this.http.postJson("/binary", key, "{}");
		HttpResponse<byte[]> second = this.http.postJson("/binary", key, "{}");
		assertThat(first.body()).hasSize(256);
		assertThat(second.body()).isEqualTo(first.body());
		assertThat(this.invocations.count("binary")).isEqualTo(1);
	}

	@Test
	void keyReusedWithDifferentBodyIsRefused() {
		String key = newKey();
		this.http.postJson("/orders", key, "{\"item\":\"book\"}");
		HttpResponse<byte[]> reused = this.http.postJson("/orders", key, "{\"item\":\"pen\"}");
		assertProblem(reused, 422, "idempotency_key_reused");
		assertThat(this.invocations.count("orders")).isEqualTo(1);
	}

	@Test
	void jsonBodiesEqualInMeaningAreTheSameRequest() {
		String key = newKey();
		this.http.postJson("/orders", key, "{\"a\":1,\"b\":{\"y\":[1,2],\"x\":\"s\"}}");
		HttpResponse<byte[]> reordered = this.http.postJson("/orders", key,
				"{ \"b\" : { \"x\":\"s\", \"y\":[1.0, 2e0] },\n \"a\" : 1.00 }");
		assertThat(reordered.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.invocations.count("orders")).isEqualTo(1);
	}

	@Test
	void ignoredFieldsDoNotChangeTheFingerprint() {
		String key = newKey();
		this.http.postJson("/ignore", key, "{\"q\":1,\"meta\":{\"trace\":\"a\"},\"sent_at\":1}");
		HttpResponse<byte[]> retry = this.http.postJson("/ignore", key, "{\"q\":1,\"meta\":{\"trace\":\"b\"},\"sent_at\":2}");
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertProblem(this.http.postJson("/ignore", key, "{\"q\":2,\"meta\":{\"trace\":\"b\"}}"), 422,
				"idempotency_key_reused");
		assertThat(this.invocations.count("ignore")).isEqualTo(1);
	}

	@Test
	void queryParameterOrderDoesNotMatterButValuesDo() {
		String key = newKey();
		this.http.postJson("/query?a=1&b=2", key, "{}");
		HttpResponse<byte[]> reordered = this.http.postJson("/query?b=2&a=1", key, "{}");
		assertThat(reordered.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertProblem(this.http.postJson("/query?a=1&b=3", key, "{}"), 422, "idempotency_key_reused");
	}

	@Test
	void requestWithoutKeyRunsEveryTime() {
		this.http.postJson("/orders", null, "{}");
		this.http.postJson("/orders", null, "{}");
		assertThat(this.invocations.count("orders")).isEqualTo(2);
	}

	@Test
	void requiredKeyMissingIsRefused() {
		assertProblem(this.http.postJson("/required", null, "{}"), 400, "idempotency_key_missing");
		assertThat(this.invocations.count("required")).isZero();
	}

	@Test
	void unannotatedEndpointIsNeverBufferedNorStored() {
		int before = CountingStorePostProcessor.CALLS.get();
		byte[] huge = new byte[200 * 1024];
		HttpResponse<byte[]> response = this.http.post("/plain", newKey(), "application/octet-stream", huge);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(this.http.get("/plain").statusCode()).isEqualTo(200);
		assertThat(CountingStorePostProcessor.CALLS.get()).isEqualTo(before);
	}

	@Test
	void moreSpecificUnannotatedMappingIsNotIntercepted() {
		String key = newKey();
		int before = CountingStorePostProcessor.CALLS.get();
		this.http.postJson("/items/special", key, "{}");
		this.http.postJson("/items/special", key, "{}");
		assertThat(this.invocations.count("special")).isEqualTo(2);
		assertThat(CountingStorePostProcessor.CALLS.get()).isEqualTo(before);

		this.http.postJson("/items/7", key, "{}");
		HttpResponse<byte[]> replay = this.http.postJson("/items/7", key, "{}");
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.invocations.count("item")).isEqualTo(1);
	}

	@Test
	void sameKeyOnAnotherPathOfTheSameRouteIsAKeyReuse() {
		String key = newKey();
		this.http.postJson("/items/7", key, "{}");
		// Same scope (the route pattern), but a different path variable is a different request:
		// replaying item 7's response for item 8 would hand one request another's result.
		assertProblem(this.http.postJson("/items/8", key, "{}"), 422, "idempotency_key_reused");
		assertThat(this.invocations.count("item")).isEqualTo(1);
	}

	@Test
	void classLevelAnnotationMakesEveryHandlerIdempotent() {
		String key = newKey();
		this.http.postJson("/class-level", key, "{}");
		HttpResponse<byte[]> replay = this.http.postJson("/class-level", key, "{}");
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.invocations.count("class-level")).isEqualTo(1);
	}

	@Test
	void differentClientsNeverShareAKey() {
		String key = newKey();
		this.http.postJson("/orders", key, "{}", "Authorization", "Bearer client-a");
		HttpResponse<byte[]> other = this.http.postJson("/orders", key, "{}", "Authorization", "Bearer client-b");
		assertThat(other.headers().firstValue("Idempotent-Replayed")).isEmpty();
		HttpResponse<byte[]> same = this.http.postJson("/orders", key, "{}", "Authorization", "Bearer client-a");
		assertThat(same.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.invocations.count("orders")).isEqualTo(2);
	}

	@Test
	void quotedAndPlainKeyAreTheSameKey() {
		String key = newKey();
		this.http.postJson("/orders", key, "{}");
		HttpResponse<byte[]> quoted = this.http.postJson("/orders", "\"" + key + "\"", "{}");
		assertThat(quoted.headers().firstValue("Idempotent-Replayed")).hasValue("true");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "   ", "a b", "a,b", "\"unterminated", "\"bad\\escape\"", "\"a\" , \"b\"",
			"\"with space\"" })
	void malformedKeyIsRefused(String key) {
		assertProblem(this.http.postJson("/orders", key, "{}"), 400, "idempotency_key_invalid");
		assertThat(this.invocations.count("orders")).isZero();
	}

	@Test
	void keyLongerThanTheLimitIsRefused() {
		assertProblem(this.http.postJson("/orders", "k".repeat(256), "{}"), 400, "idempotency_key_invalid");
		// Unique per run: the servers outlive the test run, and a key from an earlier run would be replayed.
		String unique = UUID.randomUUID().toString();
		HttpResponse<byte[]> longest = this.http.postJson("/orders", unique + "k".repeat(255 - unique.length()), "{}");
		assertThat(longest.statusCode()).isEqualTo(201);
	}

	@Test
	void repeatedKeyHeaderIsRefused() {
		String response = this.http.raw("/orders", "{}", "Idempotency-Key: one", "Idempotency-Key: two");
		assertThat(response).startsWith("HTTP/1.1 400").contains("idempotency_key_invalid");
		assertThat(this.invocations.count("orders")).isZero();
	}

	@Test
	void nonAsciiKeyIsRefused() {
		String response = this.http.raw("/orders", "{}", "Idempotency-Key: caf\u00e9-\u00ff");
		assertThat(response).startsWith("HTTP/1.1 400").contains("idempotency_key_invalid");
		assertThat(this.invocations.count("orders")).isZero();
	}

	@Test
	void bodyOverTheLimitIsRefusedBeforeAnythingRuns() {
		byte[] body = new byte[64 * 1024 + 1];
		HttpResponse<byte[]> response = this.http.post("/orders", newKey(), "application/octet-stream", body);
		assertProblem(response, 413, "idempotency_request_too_large");
		assertThat(this.invocations.count("orders")).isZero();
	}

	/**
	 * A handler that reads the body on Spring MVC's async thread, after the filter returned, reads all
	 * of it: the pooled chunk goes back only when the async cycle ends.
	 */
	@Test
	void bodyReadByAnAsyncHandlerAfterTheFilterReturnedIsWhole() {
		byte[] body = new byte[ByteChunks.CHUNK_SIZE];
		new Random(64).nextBytes(body);
		CRC32 crc = new CRC32();
		crc.update(body);
		HttpResponse<byte[]> response = this.http.post("/callable-body", newKey(), "application/octet-stream", body);
		assertThat(response.statusCode()).as(text(response)).isEqualTo(200);
		assertThat(text(response)).isEqualTo(body.length + " " + crc.getValue());
	}

	@Test
	void duplicateWhileInProgressIsRejectedWithRetryAfter() throws Exception {
		this.invocations.close();
		String key = newKey();
		ExecutorService pool = Executors.newSingleThreadExecutor();
		Future<HttpResponse<byte[]>> first = pool.submit(() -> this.http.postJson("/slow", key, "{}"));
		this.invocations.awaitCount("slow", 1);
		HttpResponse<byte[]> duplicate = this.http.postJson("/slow", key, "{}");
		assertProblem(duplicate, 409, "idempotency_request_in_progress");
		assertThat(duplicate.headers().firstValue("Retry-After")).hasValue("1");
		// No status-path: no status resource to point to.
		assertThat(duplicate.headers().firstValue("Location")).isEmpty();
		this.invocations.open();
		assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		pool.shutdown();
		HttpResponse<byte[]> after = this.http.postJson("/slow", key, "{}");
		assertThat(after.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.invocations.count("slow")).isEqualTo(1);
	}

	/**
	 * Why a load test of replays saw one answer of 400 or more in about 130,000: its key's record
	 * expired mid-run. The next copy runs the handler again, and the copies that meet it running get
	 * 409, as any duplicate of a request in progress does.
	 */
	@Test
	void afterTheRecordExpiresOneCopyRunsAgainAndTheCopiesBesideItGet409() throws Exception {
		String key = newKey();
		assertThat(this.http.postJson("/short-ttl", key, "{}").statusCode()).isEqualTo(200);
		this.invocations.close();
		ExecutorService pool = Executors.newSingleThreadExecutor();
		// A client replaying the key until its record is gone and the handler runs again (blocked at the gate).
		Future<HttpResponse<byte[]>> rerun = pool.submit(() -> {
			while (true) {
				HttpResponse<byte[]> replay = this.http.postJson("/short-ttl", key, "{}");
				if (replay.headers().firstValue("Idempotent-Replayed").isEmpty()) {
					return replay;
				}
			}
		});
		this.invocations.awaitCount("short-ttl", 2);
		for (int copy = 0; copy < 3; copy++) {
			assertProblem(this.http.postJson("/short-ttl", key, "{}"), 409, "idempotency_request_in_progress");
		}
		this.invocations.open();
		assertThat(text(rerun.get(10, TimeUnit.SECONDS))).isEqualTo("short-ttl 2");
		pool.shutdown();
		assertThat(this.invocations.count("short-ttl")).isEqualTo(2);
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
		HttpResponse<byte[]> first = this.http.postJson("/spent-orders", key, "{\"item\":\"book\"}");
		assertThat(first.statusCode()).isEqualTo(201);
		HttpResponse<byte[]> spent = await("the response to expire").atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.http.postJson("/spent-orders", key, "{\"item\":\"book\"}"), (retry) -> {
				assertThat(retry.statusCode()).as(text(retry)).isIn(201, 410);
				return retry.statusCode() == 410;
			});
		assertProblem(spent, 410, "idempotency_key_spent");
		JsonNode problem = json(spent);
		assertThat(problem.get("original_status").intValue()).isEqualTo(201);
		assertThat(Instant.parse(problem.get("completed_at").stringValue())).isBetween(before.minusSeconds(5),
				Instant.now().plusSeconds(5));
		assertThat(problem.get("resource").stringValue()).isEqualTo("/orders/1");
		assertThat(this.invocations.count("spent-orders")).isEqualTo(1);
		assertProblem(this.http.postJson("/spent-orders", key, "{\"item\":\"pen\"}"), 422, "idempotency_key_reused");
		HttpResponse<byte[]> rerun = await("the retention to end").atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.http.postJson("/spent-orders", key, "{\"item\":\"book\"}"), (retry) -> {
				assertThat(retry.statusCode()).as(text(retry)).isIn(201, 410);
				return retry.statusCode() == 201;
			});
		assertThat(rerun.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(json(rerun).get("order").intValue()).isEqualTo(2);
		assertThat(this.invocations.count("spent-orders")).isEqualTo(2);
	}

	@Test
	void waitingDuplicateGetsTheFirstResponse() throws Exception {
		this.invocations.close();
		String key = newKey();
		ExecutorService pool = Executors.newFixedThreadPool(2);
		Future<HttpResponse<byte[]>> first = pool.submit(() -> this.http.postJson("/slow-wait", key, "{}"));
		this.invocations.awaitCount("slow-wait", 1);
		int inProgressBefore = CountingStorePostProcessor.IN_PROGRESS_ANSWERS.get();
		Future<HttpResponse<byte[]>> waiter = pool.submit(() -> this.http.postJson("/slow-wait", key, "{}"));
		CountingStorePostProcessor.awaitDuplicateWaiting(inProgressBefore);
		assertThat(waiter.isDone()).isFalse();
		this.invocations.open();
		HttpResponse<byte[]> firstResponse = first.get(10, TimeUnit.SECONDS);
		HttpResponse<byte[]> waited = waiter.get(10, TimeUnit.SECONDS);
		pool.shutdown();
		assertThat(waited.statusCode()).isEqualTo(200);
		assertThat(waited.body()).isEqualTo(firstResponse.body());
		assertThat(waited.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.invocations.count("slow-wait")).isEqualTo(1);
	}

	@Test
	void concurrentDuplicatesRunTheHandlerExactlyOnce() throws Exception {
		int threads = 24;
		String key = newKey();
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<HttpResponse<byte[]>>> futures = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			futures.add(pool.submit(() -> {
				start.await();
				return this.http.postJson("/orders", key, "{\"item\":\"race\"}");
			}));
		}
		start.countDown();
		List<HttpResponse<byte[]>> responses = new ArrayList<>();
		for (Future<HttpResponse<byte[]>> future : futures) {
			responses.add(future.get(30, TimeUnit.SECONDS));
		}
		pool.shutdown();
		assertThat(this.invocations.count("orders")).isEqualTo(1);
		byte[] winner = responses.stream().filter((r) -> r.statusCode() == 201).findFirst().orElseThrow().body();
		for (HttpResponse<byte[]> response : responses) {
			if (response.statusCode() == 201) {
				assertThat(response.body()).isEqualTo(winner);
			}
			else {
				assertProblem(response, 409, "idempotency_request_in_progress");
			}
		}
	}

	@ParameterizedTest
	@ValueSource(ints = { 200, 201, 202, 204, 301, 400, 403, 404, 410, 422 })
	void recordedStatusesAreReplayed(int status) {
		String key = newKey();
		HttpResponse<byte[]> first = this.http.postJson("/status/" + status, key, "{}");
		HttpResponse<byte[]> second = this.http.postJson("/status/" + status, key, "{}");
		assertThat(first.statusCode()).isEqualTo(status);
		assertThat(second.statusCode()).isEqualTo(status);
		assertThat(second.body()).isEqualTo(first.body());
		assertThat(second.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.invocations.count("status")).isEqualTo(1);
	}

	@ParameterizedTest
	@ValueSource(ints = { 408, 409, 425, 429, 500, 502, 503, 504 })
	void releasedStatusesLetTheRetryRunAgain(int status) {
		String key = newKey();
		assertThat(this.http.postJson("/status/" + status, key, "{}").statusCode()).isEqualTo(status);
		HttpResponse<byte[]> retry = this.http.postJson("/status/" + status, key, "{}");
		assertThat(retry.statusCode()).isEqualTo(status);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(this.invocations.count("status")).isEqualTo(2);
	}

	@Test
	void handlerExceptionReleasesTheKey() {
		String key = newKey();
		assertThat(this.http.postJson("/throws", key, "{}").statusCode()).isEqualTo(500);
		assertThat(this.http.postJson("/throws", key, "{}").statusCode()).isEqualTo(500);
		assertThat(this.invocations.count("throws")).isEqualTo(2);
	}

	@Test
	void containerErrorPageIsDeliveredAndTheKeyReleased() {
		String key = newKey();
		HttpResponse<byte[]> first = this.http.postJson("/send-error/404", key, "{}");
		assertThat(first.statusCode()).isEqualTo(404);
		assertThat(this.http.postJson("/send-error/404", key, "{}").statusCode()).isEqualTo(404);
		assertThat(this.invocations.count("send-error")).isEqualTo(2);
	}

	@Test
	void redirectIsRecordedWithItsLocation() {
		String key = newKey();
		HttpResponse<byte[]> first = this.http.postJson("/redirect", key, "{}");
		HttpResponse<byte[]> second = this.http.postJson("/redirect", key, "{}");
		assertThat(first.statusCode()).isEqualTo(302);
		assertThat(second.statusCode()).isEqualTo(302);
		assertThat(second.headers().firstValue("Location")).isEqualTo(first.headers().firstValue("Location"));
		assertThat(this.invocations.count("redirect")).isEqualTo(1);
	}

	@Test
	void oversizedResponseIsDeliveredAndRetryGetsResultUnavailable() {
		String key = newKey();
		HttpResponse<byte[]> first = this.http.postJson("/big?size=100000", key, "{}");
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.body()).hasSize(100000);
		assertProblem(this.http.postJson("/big?size=100000", key, "{}"), 410, "idempotency_result_unavailable");
		assertThat(this.invocations.count("big")).isEqualTo(1);
	}

	@Test
	void responseJustUnderTheLimitIsStored() {
		String key = newKey();
		HttpResponse<byte[]> first = this.http.postJson("/big?size=65536", key, "{}");
		HttpResponse<byte[]> second = this.http.postJson("/big?size=65536", key, "{}");
		assertThat(second.body()).isEqualTo(first.body()).hasSize(65536);
		assertThat(second.headers().firstValue("Idempotent-Replayed")).hasValue("true");
	}

	@Test
	void serverSentEventsAreRecordedWithIdsAndReplayed() {
		String key = newKey();
		HttpResponse<byte[]> first = this.http.postJson("/sse", key, "{}");
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(text(first)).matches("id: 1\\.[A-Za-z0-9_-]{8}\ndata:one\n\n");
		HttpResponse<byte[]> second = this.http.postJson("/sse", key, "{}");
		assertThat(second.body()).isEqualTo(first.body());
		assertThat(second.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.invocations.count("sse")).isEqualTo(1);
	}

	@Test
	void streamingResponseBodyIsDeliveredButNotRecorded() {
		String key = newKey();
		assertThat(text(this.http.postJson("/streaming", key, "{}"))).isEqualTo("streamed");
		assertThat(text(this.http.postJson("/streaming", key, "{}"))).isEqualTo("streamed");
		assertThat(this.invocations.count("streaming")).isEqualTo(2);
	}

	@Test
	void formParametersRemainReadableAndAreFingerprinted() {
		String key = newKey();
		byte[] form = "name=J%C3%BCrgen&city=Bern".getBytes(StandardCharsets.UTF_8);
		HttpResponse<byte[]> first = this.http.post("/form", key, "application/x-www-form-urlencoded", form);
		assertThat(text(first)).isEqualTo("form J\u00fcrgen Bern 1");
		HttpResponse<byte[]> replay = this.http.post("/form", key, "application/x-www-form-urlencoded", form);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertProblem(this.http.post("/form", key, "application/x-www-form-urlencoded",
				"name=Other&city=Bern".getBytes(StandardCharsets.UTF_8)), 422, "idempotency_key_reused");
	}

	@Test
	void multipartPartsRemainReadableAndAreFingerprinted() {
		String key = newKey();
		String boundary = "----modelgate";
		String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"label\"\r\n\r\ninvoice\r\n--" + boundary
				+ "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\n"
				+ "hello world\r\n--" + boundary + "--\r\n";
		String contentType = "multipart/form-data; boundary=" + boundary;
		HttpResponse<byte[]> first = this.http.post("/upload", key, contentType, body.getBytes(StandardCharsets.UTF_8));
		assertThat(text(first)).isEqualTo("upload invoice a.txt 11 1");
		HttpResponse<byte[]> replay = this.http.post("/upload", key, contentType, body.getBytes(StandardCharsets.UTF_8));
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		String changed = body.replace("hello world", "hello there");
		assertProblem(this.http.post("/upload", key, contentType, changed.getBytes(StandardCharsets.UTF_8)), 422,
				"idempotency_key_reused");
	}

	@Test
	void bodyCanBeReadThroughReaderAndInputStream() {
		HttpResponse<byte[]> response = this.http.post("/reader", newKey(), "text/plain",
				"hello".getBytes(StandardCharsets.UTF_8));
		assertThat(text(response)).isEqualTo("reader hello | hello 1");
	}

	@Test
	void invalidJsonIsFingerprintedAsBytes() {
		String key = newKey();
		HttpResponse<byte[]> first = this.http.post("/reader", key, "application/json",
				"{\"a\":1,\"a\":2}".getBytes(StandardCharsets.UTF_8));
		assertThat(first.statusCode()).isEqualTo(200);
		assertProblem(this.http.post("/reader", key, "application/json", "{\"a\":2}".getBytes(StandardCharsets.UTF_8)),
				422, "idempotency_key_reused");
	}

}
