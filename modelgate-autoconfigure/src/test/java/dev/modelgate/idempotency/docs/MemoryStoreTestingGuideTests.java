package dev.modelgate.idempotency.docs;

import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/TESTING.md, "Resetting state between tests" (the memory store) and "Simulating 409": the code
 * the guide quotes, run.
 */
@Tag("boot")
@SpringBootTest(classes = GuideApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "modelgate.idempotency.store=memory")
class MemoryStoreTestingGuideTests {

	@Autowired
	private InMemoryIdempotencyStore store;

	@AfterEach
	void forgetEveryKey() {
		this.store.clear();
	}

	@Autowired
	private GuideOrderController orders;

	@LocalServerPort
	private int port;

	private GuideClient client;

	@BeforeEach
	void client() {
		this.client = new GuideClient(this.port);
	}

	@Test
	void aKeyUsedByAnEarlierTestRunsAgainAfterClear() throws Exception {
		assertThat(this.client.post("order-1").headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(this.client.post("order-1").headers().firstValue("Idempotent-Replayed")).hasValue("true");

		forgetEveryKey();

		assertThat(this.client.post("order-1").headers().firstValue("Idempotent-Replayed")).isEmpty();
	}

	@Test
	void aDuplicateWhileTheFirstRequestRunsGets409() throws Exception {
		this.orders.holdNextOrder();
		CompletableFuture<HttpResponse<String>> first = this.client.postAsync("order-2");
		this.orders.awaitHeld();

		HttpResponse<String> duplicate = this.client.post("order-2");
		this.orders.release();

		assertThat(duplicate.statusCode()).isEqualTo(409);
		assertThat(duplicate.body()).contains("idempotency_request_in_progress");
		assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
	}

}
