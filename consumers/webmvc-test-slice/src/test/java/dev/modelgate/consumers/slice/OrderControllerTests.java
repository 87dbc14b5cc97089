package dev.modelgate.consumers.slice;

import java.util.UUID;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

import dev.modelgate.consumers.slice.OrderService.Order;
import dev.modelgate.consumers.slice.OrderService.OrderRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.times;

/**
 * The README's "Testing your application", word for word: a {@code @WebMvcTest} of a controller with an
 * {@code @Idempotent} method gets the filter and an in-memory store with no set-up, although the application
 * keeps its records in Redis and no Redis runs here.
 */
@Tag("boot")
@WebMvcTest(OrderController.class)
class OrderControllerTests {

	@Autowired
	private MockMvcTester mvc;

	@MockitoBean
	private OrderService orders;

	@Test
	void retryWithTheSameKeyIsReplayedWithoutPlacingTheOrderAgain() {
		given(this.orders.place(any())).willAnswer((call) -> {
			OrderRequest request = call.getArgument(0);
			return new Order(UUID.randomUUID().toString(), request.item(), request.quantity());
		});
		String key = UUID.randomUUID().toString();

		MvcTestResult first = post(key, "{\"item\":\"book\",\"quantity\":1}");
		MvcTestResult retry = post(key, "{\"item\":\"book\",\"quantity\":1}");

		assertThat(first).hasStatus(HttpStatus.CREATED).doesNotContainHeader("Idempotent-Replayed");
		assertThat(retry).hasStatus(HttpStatus.CREATED).hasHeader("Idempotent-Replayed", "true");
		assertThat(retry.getResponse().getContentAsByteArray())
			.isEqualTo(first.getResponse().getContentAsByteArray());
		then(this.orders).should(times(1)).place(any());
	}

	@Test
	void sameKeyWithAnotherBodyIsRejected() {
		given(this.orders.place(any())).willReturn(new Order("ord_1", "book", 1));
		String key = UUID.randomUUID().toString();

		assertThat(post(key, "{\"item\":\"book\",\"quantity\":1}")).hasStatus(HttpStatus.CREATED);
		MvcTestResult reused = post(key, "{\"item\":\"book\",\"quantity\":2}");

		assertThat(reused).hasStatus(422)
			.hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON);
		assertThat(reused).bodyJson().extractingPath("$.code").isEqualTo("idempotency_key_reused");
		then(this.orders).should(times(1)).place(any());
	}

	private MvcTestResult post(String key, String json) {
		return this.mvc.post()
			.uri("/orders")
			.header("Idempotency-Key", key)
			.contentType(MediaType.APPLICATION_JSON)
			.content(json)
			.exchange();
	}

}
