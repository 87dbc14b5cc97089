package dev.modelgate.idempotency.web.reactive;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.web.reactive.ReactiveTestApplication.Runs;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A store that cannot be reached: 503 with Retry-After and the handler not run, unless the endpoint
 * opts into {@code onStoreFailure = PROCEED}. The application's own {@link AsyncIdempotencyStore}
 * bean is the one the engine uses.
 */
@Tag("boot")
@SpringBootTest(classes = { ReactiveTestApplication.class, ReactiveStoreUnavailableHttpTests.DownStore.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "modelgate.idempotency.store=memory",
				"modelgate.idempotency.retry-after=3s",
				"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration" })
class ReactiveStoreUnavailableHttpTests {

	@LocalServerPort
	private int port;

	@Autowired
	private Runs runs;

	private EntityExchangeResult<byte[]> post(String uri) {
		return WebTestClient.bindToServer()
			.baseUrl("http://127.0.0.1:" + this.port)
			.build()
			.post()
			.uri(uri)
			.header("Idempotency-Key", UUID.randomUUID().toString())
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue("{}")
			.exchange()
			.expectBody()
			.returnResult();
	}

	@Test
	void storeDownIsAnswered503AndTheHandlerDoesNotRun() {
		this.runs.reset();
		EntityExchangeResult<byte[]> result = post("/orders");
		assertThat(result.getStatus().value()).isEqualTo(503);
		assertThat(result.getResponseHeaders().getFirst("Retry-After")).isEqualTo("3");
		assertThat(result.getResponseHeaders().getContentType()).hasToString("application/problem+json");
		assertThat(new String(result.getResponseBody())).contains("\"code\":\"idempotency_store_unavailable\"");
		assertThat(this.runs.of("orders")).isZero();
	}

	@Test
	void storeDownRunsAnEndpointThatProceedsWithoutProtection() {
		this.runs.reset();
		assertThat(post("/proceeding-orders").getStatus().value()).isEqualTo(201);
		assertThat(this.runs.of("proceeding-orders")).isEqualTo(1);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class DownStore {

		@Bean
		AsyncIdempotencyStore downStore() {
			return new AsyncIdempotencyStore() {

				@Override
				public CompletableFuture<BeginResult> begin(String scope, String fingerprint, String token,
						Duration leaseTtl) {
					return CompletableFuture.failedFuture(new IdempotencyStoreException("connection refused"));
				}

				@Override
				public CompletableFuture<Boolean> renew(String scope, String token, Duration leaseTtl) {
					return CompletableFuture.failedFuture(new IdempotencyStoreException("connection refused"));
				}

				@Override
				public CompletableFuture<Boolean> complete(String scope, String token, @Nullable StoredOutcome outcome,
						Duration ttl) {
					return CompletableFuture.failedFuture(new IdempotencyStoreException("connection refused"));
				}

				@Override
				public CompletableFuture<Boolean> release(String scope, String token) {
					return CompletableFuture.failedFuture(new IdempotencyStoreException("connection refused"));
				}

			};
		}

	}

}
