package dev.modelgate.idempotency.docs;

import java.net.http.HttpResponse;
import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreDecorator;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StoredOutcome;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/TESTING.md, "Simulating 503": a store that fails, through an {@link IdempotencyStoreDecorator} bean. */
@Tag("boot")
@SpringBootTest(classes = GuideApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "modelgate.idempotency.store=memory")
@Import(StoreFailureTestingGuideTests.StoreDown.class)
class StoreFailureTestingGuideTests {

	@Autowired
	private GuideOrderController orders;

	@LocalServerPort
	private int port;

	@Test
	void aStoreThatFailsAnswers503AndTheHandlerDoesNotRun() throws Exception {
		HttpResponse<String> response = new GuideClient(this.port).post("order-3");

		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(response.headers().firstValue("Retry-After")).isPresent();
		assertThat(response.body()).contains("idempotency_store_unavailable");
		assertThat(this.orders.placed()).isZero();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class StoreDown {

		@Bean
		IdempotencyStoreDecorator storeDown() {
			return (store) -> new IdempotencyStore() {

				@Override
				public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
					throw new IdempotencyStoreException("the store is down (test)");
				}

				@Override
				public boolean renew(String scope, String token, Duration leaseTtl) {
					throw new IdempotencyStoreException("the store is down (test)");
				}

				@Override
				public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
					throw new IdempotencyStoreException("the store is down (test)");
				}

				@Override
				public boolean release(String scope, String token) {
					throw new IdempotencyStoreException("the store is down (test)");
				}

			};
		}

	}

}
