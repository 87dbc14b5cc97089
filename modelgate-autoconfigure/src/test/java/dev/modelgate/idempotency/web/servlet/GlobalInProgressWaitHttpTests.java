package dev.modelgate.idempotency.web.servlet;

import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.modelgate.idempotency.web.testapp.CountingStorePostProcessor;
import dev.modelgate.idempotency.web.testapp.Invocations;
import dev.modelgate.idempotency.web.testapp.TestApplication;

import static dev.modelgate.idempotency.web.servlet.HttpClientSupport.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code in-progress=wait} over real HTTP: a duplicate of a running request to an endpoint that leaves
 * {@code inProgress} to the default waits for the first response and gets it replayed, while an
 * endpoint that says {@code REJECT} still answers 409 at once.
 */
@Tag("boot")
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.idempotency.store=memory", "modelgate.idempotency.in-progress=wait",
				"modelgate.idempotency.wait-timeout=10s", "modelgate.idempotency.operation-timeout=10s",
				"modelgate.idempotency.client-identity-header=Authorization",
				"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration" })
class GlobalInProgressWaitHttpTests {

	@LocalServerPort
	private int port;

	@Autowired
	private Invocations invocations;

	private HttpClientSupport http;

	private final ExecutorService pool = Executors.newFixedThreadPool(2);

	@BeforeEach
	void setUp() {
		this.http = new HttpClientSupport(this.port);
		this.invocations.reset();
		this.invocations.close();
	}

	@AfterEach
	void tearDown() {
		this.invocations.open();
		this.pool.shutdownNow();
	}

	@Test
	void duplicateWaitsForTheRunningRequestAndGetsItsResponseReplayed() throws Exception {
		String key = UUID.randomUUID().toString();
		Future<HttpResponse<byte[]>> first = this.pool.submit(() -> this.http.postJson("/slow", key, "{}"));
		this.invocations.awaitCount("slow", 1);
		int inProgressBefore = CountingStorePostProcessor.IN_PROGRESS_ANSWERS.get();
		Future<HttpResponse<byte[]>> duplicate = this.pool.submit(() -> this.http.postJson("/slow", key, "{}"));
		CountingStorePostProcessor.awaitDuplicateWaiting(inProgressBefore);
		assertThat(duplicate.isDone()).as("the duplicate waits while the first request runs").isFalse();
		this.invocations.open();
		HttpResponse<byte[]> firstResponse = first.get(10, TimeUnit.SECONDS);
		HttpResponse<byte[]> replayed = duplicate.get(10, TimeUnit.SECONDS);
		assertThat(firstResponse.statusCode()).isEqualTo(200);
		assertThat(text(firstResponse)).isEqualTo("slow 1");
		assertThat(replayed.statusCode()).isEqualTo(200);
		assertThat(replayed.body()).isEqualTo(firstResponse.body());
		assertThat(replayed.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.invocations.count("slow")).isEqualTo(1);
	}

	@Test
	void endpointThatSaysRejectAnswersTheDuplicate409AtOnce() throws Exception {
		String key = UUID.randomUUID().toString();
		Future<HttpResponse<byte[]>> first = this.pool.submit(() -> this.http.postJson("/slow-reject", key, "{}"));
		this.invocations.awaitCount("slow-reject", 1);
		HttpResponse<byte[]> duplicate = this.http.postJson("/slow-reject", key, "{}");
		assertThat(duplicate.statusCode()).isEqualTo(409);
		assertThat(text(duplicate)).contains("\"code\":\"idempotency_request_in_progress\"");
		this.invocations.open();
		assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		assertThat(this.invocations.count("slow-reject")).isEqualTo(1);
	}

}
