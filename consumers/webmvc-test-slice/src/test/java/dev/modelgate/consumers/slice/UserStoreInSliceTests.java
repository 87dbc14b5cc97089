package dev.modelgate.consumers.slice;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;

import dev.modelgate.consumers.slice.OrderService.Order;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.spy;

/** A store bean that the test declares wins over the slice's in-memory store, and requests go through it. */
@Tag("boot")
@WebMvcTest(OrderController.class)
class UserStoreInSliceTests {

	@Autowired
	private MockMvcTester mvc;

	@Autowired
	private ApplicationContext context;

	@Autowired
	private IdempotencyStore store;

	@MockitoBean
	private OrderService orders;

	@Test
	void theTestsStoreIsTheOnlyStore() {
		assertThat(this.context.getBeanNamesForType(IdempotencyStore.class)).containsExactly("testStore");
	}

	@Test
	void requestsGoThroughTheTestsStore() {
		given(this.orders.place(any())).willReturn(new Order("ord_1", "book", 1));

		assertThat(this.mvc.post()
			.uri("/orders")
			.header("Idempotency-Key", UUID.randomUUID().toString())
			.contentType(MediaType.APPLICATION_JSON)
			.content("{\"item\":\"book\",\"quantity\":1}")).hasStatus(HttpStatus.CREATED);

		then(this.store).should().begin(anyString(), anyString(), anyString(), any(Duration.class));
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class StoreConfiguration {

		@Bean
		IdempotencyStore testStore() {
			return spy(new InMemoryIdempotencyStore());
		}

	}

}
