package dev.modelgate.consumers.slice;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.test.context.bean.override.mockito.MockitoBean;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.web.servlet.IdempotencyFilter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the slice of {@link OrderControllerTests} holds: the filter and the in-memory store, and no Redis, although
 * Spring Data Redis is on the class path and the application's properties point at a Redis server.
 */
@Tag("boot")
@WebMvcTest(OrderController.class)
class SliceStoreTests {

	@Autowired
	private ApplicationContext context;

	@MockitoBean
	private OrderService orders;

	@Test
	void sliceHasTheFilterAndTheInMemoryStore() {
		assertThat(this.context.getBeansOfType(IdempotencyFilter.class)).hasSize(1);
		assertThat(this.context.getBeansOfType(IdempotencyStore.class).values()).singleElement()
			.isInstanceOf(InMemoryIdempotencyStore.class);
	}

	@Test
	void sliceNeedsNoRedis() {
		assertThat(this.context.getBeanNamesForType(RedisConnectionFactory.class)).isEmpty();
	}

}
