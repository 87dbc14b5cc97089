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

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;

/**
 * A {@code @MockitoBean} store replaces the slice's in-memory store: here it is down, and the endpoint answers
 * 503 without running the handler.
 */
@Tag("boot")
@WebMvcTest(OrderController.class)
class MockedStoreInSliceTests {

	@Autowired
	private MockMvcTester mvc;

	@MockitoBean
	private IdempotencyStore store;

	@MockitoBean
	private OrderService orders;

	@Test
	void storeThatIsDownIsAnswered503WithoutRunningTheHandler() {
		given(this.store.begin(any(), any(), any(), any()))
			.willThrow(new IdempotencyStoreException("connection refused"));

		MvcTestResult result = this.mvc.post()
			.uri("/orders")
			.header("Idempotency-Key", UUID.randomUUID().toString())
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"item\":\"book\",\"quantity\":1}")
			.exchange();

		assertThat(result).hasStatus(HttpStatus.SERVICE_UNAVAILABLE).containsHeader("Retry-After");
		assertThat(result).bodyJson().extractingPath("$.code").isEqualTo("idempotency_store_unavailable");
		then(this.orders).shouldHaveNoInteractions();
	}

}
