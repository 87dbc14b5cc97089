package dev.modelgate.consumers.webflux;

import java.util.UUID;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webflux.test.autoconfigure.WebFluxTest;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code @WebFluxTest} of a controller with an {@code @Idempotent} method gets the WebFlux filter and,
 * with no store configured ({@code store=auto}) and none on the class path, the in-memory store, as a
 * {@code @WebMvcTest} does: the test slice keeps the behaviour it tests.
 */
@Tag("boot")
@WebFluxTest(controllers = OrderController.class, properties = "modelgate.idempotency.store=auto")
class OrderControllerSliceTests {

	@Autowired
	private WebTestClient client;

	@Autowired
	private OrderController controller;

	@Test
	void retryWithTheSameKeyIsReplayedWithoutRunningTheHandlerAgain() {
		String key = UUID.randomUUID().toString();
		int before = this.controller.invocations();

		EntityExchangeResult<byte[]> first = post(key, "{\"item\":\"book\"}");
		EntityExchangeResult<byte[]> retry = post(key, "{\"item\":\"book\"}");

		assertThat(first.getStatus().value()).isEqualTo(201);
		assertThat(first.getResponseHeaders().getFirst("Idempotent-Replayed")).isNull();
		assertThat(retry.getStatus().value()).isEqualTo(201);
		assertThat(retry.getResponseHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
		assertThat(retry.getResponseBody()).isEqualTo(first.getResponseBody());
		assertThat(this.controller.invocations()).isEqualTo(before + 1);
	}

	@Test
	void sameKeyWithAnotherBodyIsRefusedWithAProblem() {
		String key = UUID.randomUUID().toString();
		post(key, "{\"item\":\"book\"}");

		EntityExchangeResult<byte[]> reused = post(key, "{\"item\":\"pen\"}");

		assertThat(reused.getStatus().value()).isEqualTo(422);
		assertThat(reused.getResponseHeaders().getContentType()).isNotNull()
			.satisfies((type) -> assertThat(type.isCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)).isTrue());
		assertThat(new String(reused.getResponseBody())).contains("idempotency_key_reused");
	}

	private EntityExchangeResult<byte[]> post(String key, String json) {
		return this.client.post()
			.uri("/orders")
			.header("Idempotency-Key", key)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(json)
			.exchange()
			.expectBody()
			.returnResult();
	}

}
