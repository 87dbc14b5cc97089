package dev.modelgate.idempotency.web.servlet;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.modelgate.idempotency.web.testapp.CountingStorePostProcessor;
import dev.modelgate.idempotency.web.testapp.FunctionalRoutes;
import dev.modelgate.idempotency.web.testapp.Invocations;
import dev.modelgate.idempotency.web.testapp.TestApplication;

import static dev.modelgate.idempotency.web.servlet.HttpClientSupport.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Routes without annotations over real HTTP on a real server: Spring MVC functional endpoints made
 * idempotent by {@code modelgate.idempotency.routes} or by the {@link IdempotentRoute} attribute, and
 * an unannotated controller covered by a declared route; subclasses choose the store.
 */
@Tag("boot")
@SpringBootTest(classes = { TestApplication.class, FunctionalRoutes.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.idempotency.client-identity-header=Authorization",
				"modelgate.idempotency.operation-timeout=10s", "modelgate.idempotency.wait-timeout=10s",
				"modelgate.idempotency.routes[0].method=POST", "modelgate.idempotency.routes[0].path=/fn/declared/{id}",
				"modelgate.idempotency.routes[1].method=post", "modelgate.idempotency.routes[1].path=/fn/required",
				"modelgate.idempotency.routes[1].required=true",
				"modelgate.idempotency.routes[2].method=POST", "modelgate.idempotency.routes[2].path=/plain",
				"modelgate.idempotency.routes[2].scope=plain-orders" })
abstract class AbstractIdempotentRoutesHttpTests {

	@LocalServerPort
	private int port;

	@Autowired
	private Invocations invocations;

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

	@ParameterizedTest
	@ValueSource(strings = { "/fn/declared/7", "/fn/marked" })
	void replaysStoredResponseWithoutRunningTheHandler(String path) {
		String key = newKey();
		HttpResponse<byte[]> first = this.http.postJson(path, key, "{\"item\":\"book\"}");
		HttpResponse<byte[]> second = this.http.postJson(path, key, "{ \"item\" : \"book\" }");

		assertThat(first.statusCode()).as(text(first)).isEqualTo(201);
		assertThat(second.statusCode()).isEqualTo(201);
		assertThat(second.body()).isEqualTo(first.body());
		assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(second.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(second.headers().firstValue("Location")).isEqualTo(first.headers().firstValue("Location"));
		assertThat(this.invocations.count(handler(path))).isEqualTo(1);
	}

	@ParameterizedTest
	@ValueSource(strings = { "/fn/declared/7", "/fn/marked" })
	void keyReusedWithAnotherBodyIsRefused(String path) {
		String key = newKey();
		this.http.postJson(path, key, "{\"item\":\"book\"}");
		HttpResponse<byte[]> reused = this.http.postJson(path, key, "{\"item\":\"pen\"}");
		assertThat(reused.statusCode()).isEqualTo(422);
		assertThat(text(reused)).contains("idempotency_key_reused");
		assertThat(this.invocations.count(handler(path))).isEqualTo(1);
	}

	@Test
	void sameKeyOnAnotherPathOfTheDeclaredPatternIsAKeyReuse() {
		String key = newKey();
		this.http.postJson("/fn/declared/7", key, "{}");
		HttpResponse<byte[]> other = this.http.postJson("/fn/declared/8", key, "{}");
		assertThat(other.statusCode()).isEqualTo(422);
		assertThat(this.invocations.count("fn-declared")).isEqualTo(1);
	}

	@ParameterizedTest
	@ValueSource(strings = { "/fn/declared/7", "/fn/marked" })
	void concurrentDuplicatesRunTheHandlerOnce(String path) throws Exception {
		int threads = 20;
		String key = newKey();
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<HttpResponse<byte[]>>> futures = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			futures.add(pool.submit(() -> {
				start.await();
				return this.http.postJson(path, key, "{\"item\":\"race\"}");
			}));
		}
		start.countDown();
		List<HttpResponse<byte[]>> responses = new ArrayList<>();
		for (Future<HttpResponse<byte[]>> future : futures) {
			responses.add(future.get(30, TimeUnit.SECONDS));
		}
		pool.shutdown();
		assertThat(this.invocations.count(handler(path))).isEqualTo(1);
		byte[] winner = responses.stream().filter((r) -> r.statusCode() == 201).findFirst().orElseThrow().body();
		assertThat(responses).allSatisfy((response) -> {
			if (response.statusCode() == 201) {
				assertThat(response.body()).isEqualTo(winner);
			}
			else {
				assertThat(response.statusCode()).isEqualTo(409);
				assertThat(text(response)).contains("idempotency_request_in_progress");
			}
		});
	}

	@Test
	void routeAttributeSettingsApply() throws Exception {
		this.invocations.close();
		String key = newKey();
		ExecutorService pool = Executors.newFixedThreadPool(2);
		Future<HttpResponse<byte[]>> first = pool.submit(() -> this.http.postJson("/fn/marked-wait", key, "{}"));
		this.invocations.awaitCount("fn-marked-wait", 1);
		// inProgress = WAIT: the duplicate waits for the first response instead of a 409.
		int inProgressBefore = CountingStorePostProcessor.IN_PROGRESS_ANSWERS.get();
		Future<HttpResponse<byte[]>> waiter = pool.submit(() -> this.http.postJson("/fn/marked-wait", key, "{}"));
		CountingStorePostProcessor.awaitDuplicateWaiting(inProgressBefore);
		assertThat(waiter.isDone()).isFalse();
		this.invocations.open();
		HttpResponse<byte[]> firstResponse = first.get(10, TimeUnit.SECONDS);
		HttpResponse<byte[]> waited = waiter.get(10, TimeUnit.SECONDS);
		pool.shutdown();
		assertThat(waited.body()).isEqualTo(firstResponse.body());
		assertThat(waited.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.invocations.count("fn-marked-wait")).isEqualTo(1);
	}

	@Test
	void declaredRequiredKeyMissingIsRefused() {
		HttpResponse<byte[]> response = this.http.postJson("/fn/required", null, "{}");
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(text(response)).contains("idempotency_key_missing");
		assertThat(this.invocations.count("fn-required")).isZero();
	}

	@Test
	void requestWithoutKeyRunsEveryTime() {
		this.http.postJson("/fn/marked", null, "{}");
		this.http.postJson("/fn/marked", null, "{}");
		assertThat(this.invocations.count("fn-marked")).isEqualTo(2);
	}

	@Test
	void declaredRouteCoversAnUnannotatedController() {
		String key = newKey();
		HttpResponse<byte[]> first = this.http.postJson("/plain", key, "{}");
		HttpResponse<byte[]> second = this.http.postJson("/plain", key, "{}");
		assertThat(text(second)).isEqualTo(text(first)).isEqualTo("plain 1");
		assertThat(second.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.invocations.count("plain")).isEqualTo(1);
	}

	@Test
	void undeclaredUnmarkedFunctionalRouteIsNeverStored() {
		String key = newKey();
		int before = CountingStorePostProcessor.CALLS.get();
		this.http.postJson("/fn/unmarked", key, "{}");
		this.http.postJson("/fn/unmarked", key, "{}");
		assertThat(this.invocations.count("fn-unmarked")).isEqualTo(2);
		assertThat(CountingStorePostProcessor.CALLS.get()).isEqualTo(before);
	}

	@Test
	void annotatedEndpointsKeepWorkingBesideTheRoutes() {
		String key = newKey();
		this.http.postJson("/orders", key, "{}");
		HttpResponse<byte[]> replay = this.http.postJson("/orders", key, "{}");
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.invocations.count("orders")).isEqualTo(1);
	}

	@Test
	void streamedFunctionalEndpointIsRecordedAndReplayed() {
		String key = newKey();
		HttpResponse<byte[]> first = this.http.postJson("/fn/sse", key, "{}");
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/event-stream"));
		assertThat(text(first)).matches("id: 1\\.([A-Za-z0-9_-]{8})\ndata:one\n\nid: 2\\.\\1\ndata:two\n\n");
		HttpResponse<byte[]> second = this.http.postJson("/fn/sse", key, "{}");
		assertThat(second.body()).isEqualTo(first.body());
		assertThat(second.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.invocations.count("fn-sse")).isEqualTo(1);
	}

	private static String handler(String path) {
		return path.startsWith("/fn/declared") ? "fn-declared" : "fn-marked";
	}

}
