package dev.modelgate.idempotency.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.retry.RetryException;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.http.HttpStatusCode;
import org.springframework.resilience.annotation.EnableResilientMethods;
import org.springframework.resilience.annotation.Retryable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientAdapter;
import org.springframework.web.service.annotation.PostExchange;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;

import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.core.ResultCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * A downstream API that records the {@code Idempotency-Key} of every call it gets, called through a
 * {@code RestClient} with the interceptor from inside runs of an {@link IdempotencyTemplate}: one logical
 * call carries one key however often it is retried (by hand, by Spring's {@code RetryTemplate}, by
 * {@code @Retryable} around an HTTP interface client) or its run repeated, different calls carry different
 * keys, and no key is the run's own.
 */
class DerivedIdempotencyKeyInterceptorTests {

	private final List<String> keys = new CopyOnWriteArrayList<>();

	private final AtomicInteger failuresLeft = new AtomicInteger();

	private HttpServer downstream;

	private IdempotencyCoordinator coordinator;

	private IdempotencyTemplate template;

	private RestClient client;

	@BeforeEach
	void start() throws IOException {
		this.downstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.downstream.createContext("/", (exchange) -> {
			exchange.getRequestBody().readAllBytes();
			String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
			this.keys.add(String.valueOf(key));
			int status = (this.failuresLeft.getAndDecrement() > 0) ? 503 : 200;
			exchange.sendResponseHeaders(status, -1);
			exchange.close();
		});
		this.downstream.start();
		this.coordinator = IdempotencyCoordinator.create(new InMemoryIdempotencyStore(), Duration.ofSeconds(1));
		this.template = new IdempotencyTemplate(this.coordinator);
		this.client = RestClient.builder()
			.baseUrl("http://127.0.0.1:" + this.downstream.getAddress().getPort())
			.requestInterceptor(new DerivedIdempotencyKeyInterceptor())
			.defaultStatusHandler(HttpStatusCode::isError, (request, response) -> {
			})
			.build();
	}

	@AfterEach
	void stop() {
		this.downstream.stop(0);
		this.coordinator.close();
	}

	@Test
	void retriesOfOneCallCarryOneKeyAndItIsNotTheRunsKey() {
		String runKey = UUID.randomUUID().toString();
		this.failuresLeft.set(2);

		this.template.execute("checkout", runKey, ResultCodec.utf8(), () -> {
			// The caller's own retry loop (Spring's RetryTemplate or resilience4j do the same): three tries.
			while (charge("{\"amount\":100}") == 503) {
			}
			return "charged";
		});

		assertThat(this.keys).hasSize(3).doesNotContain("null", runKey);
		assertThat(this.keys).containsOnly(this.keys.get(0));
	}

	@Test
	void retriesBySpringsRetryTemplateCarryOneKey() throws RetryException {
		String runKey = UUID.randomUUID().toString();
		this.failuresLeft.set(2);
		RestClient failing = failingClient();
		RetryTemplate retries = new RetryTemplate(RetryPolicy.builder().maxRetries(2).delay(Duration.ZERO).build());

		this.template.execute("checkout", runKey, ResultCodec.utf8(),
				() -> retries.execute(() -> failing.post().uri("/charges").body("{\"amount\":100}").retrieve()
					.toBodilessEntity()
					.getStatusCode()
					.toString()));

		assertThat(this.keys).hasSize(3).doesNotContain("null", runKey);
		assertThat(this.keys).containsOnly(this.keys.get(0));
	}

	@Test
	void retriesByRetryableOnAnHttpInterfaceClientCarryOneKey() {
		String runKey = UUID.randomUUID().toString();
		this.failuresLeft.set(2);
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
			context.registerBean(RestClient.class, this::failingClient);
			context.register(RetryingCheckoutConfiguration.class);
			context.refresh();
			Checkout checkout = context.getBean(Checkout.class);

			this.template.execute("checkout", runKey, ResultCodec.utf8(), () -> {
				checkout.charge("{\"amount\":100}");
				return "charged";
			});
		}

		assertThat(this.keys).hasSize(3).doesNotContain("null", runKey);
		assertThat(this.keys).containsOnly(this.keys.get(0));
	}

	@Test
	void aRunRepeatedAfterItFailedSendsTheSameKey() {
		String runKey = UUID.randomUUID().toString();

		assertThatIllegalStateException().isThrownBy(() -> this.template.execute("checkout", runKey,
				ResultCodec.utf8(), () -> {
					charge("{\"amount\":100}");
					throw new IllegalStateException("failed after the charge, before the run completed");
				}));
		this.template.execute("checkout", runKey, ResultCodec.utf8(), () -> {
			charge("{\"amount\":100}");
			return "charged";
		});

		assertThat(this.keys).hasSize(2).doesNotContain("null");
		assertThat(this.keys.get(1)).isEqualTo(this.keys.get(0));
	}

	@Test
	void differentCallsOfOneRunAndOtherRunsCarryOtherKeys() {
		String runKey = UUID.randomUUID().toString();

		this.template.execute("checkout", runKey, ResultCodec.utf8(), () -> {
			charge("{\"amount\":100}");
			charge("{\"amount\":250}");
			this.client.post().uri("/charges").attribute(DerivedIdempotencyKeyInterceptor.CALL, "first")
				.body("{\"amount\":100}").retrieve().toBodilessEntity();
			this.client.post().uri("/charges").attribute(DerivedIdempotencyKeyInterceptor.CALL, "second")
				.body("{\"amount\":100}").retrieve().toBodilessEntity();
			return "charged";
		});
		this.template.execute("checkout", UUID.randomUUID().toString(), ResultCodec.utf8(), () -> {
			charge("{\"amount\":100}");
			return "charged";
		});

		assertThat(this.keys).hasSize(5).doesNotContain("null").doesNotHaveDuplicates();
	}

	@Test
	void aNamedCallKeepsItsKeyWhenItsBodyChanges() {
		String runKey = UUID.randomUUID().toString();
		for (String body : List.of("{\"at\":1}", "{\"at\":2}")) {
			assertThatIllegalStateException().isThrownBy(() -> this.template.execute("notify", runKey,
					ResultCodec.utf8(), () -> {
						this.client.post().uri("/mails").attribute(DerivedIdempotencyKeyInterceptor.CALL, "mail")
							.body(body).retrieve().toBodilessEntity();
						throw new IllegalStateException("failed after the mail");
					}));
		}

		assertThat(this.keys).hasSize(2).doesNotContain("null");
		assertThat(this.keys.get(1)).isEqualTo(this.keys.get(0));
	}

	@Test
	void callsOutsideAKeyedRunAndCallsWithTheirOwnKeyAreLeftAlone() {
		charge("{\"amount\":100}");
		this.template.execute("checkout", UUID.randomUUID().toString(), ResultCodec.utf8(), () -> {
			this.client.post().uri("/charges").header("Idempotency-Key", "the-callers-own").body("{}").retrieve()
				.toBodilessEntity();
			return "charged";
		});

		assertThat(this.keys).containsExactly("null", "the-callers-own");
	}

	/** A client that throws on a 5xx, as a user's does, so that a retry mechanism sees the failure. */
	private RestClient failingClient() {
		return RestClient.builder()
			.baseUrl("http://127.0.0.1:" + this.downstream.getAddress().getPort())
			.requestInterceptor(new DerivedIdempotencyKeyInterceptor())
			.build();
	}

	private int charge(String json) {
		return this.client.post().uri("/charges").body(json).retrieve().toBodilessEntity().getStatusCode().value();
	}

	/** A payment API declared as an HTTP interface client. */
	interface Payments {

		@PostExchange("/charges")
		void charge(@RequestBody String json);

	}

	/** A service that retries its payment call with Spring Framework 7's {@code @Retryable}. */
	static class Checkout {

		private final Payments payments;

		Checkout(Payments payments) {
			this.payments = payments;
		}

		@Retryable(maxRetries = 2, delay = 0)
		public void charge(String json) {
			this.payments.charge(json);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableResilientMethods
	static class RetryingCheckoutConfiguration {

		@Bean
		Payments payments(RestClient client) {
			return HttpServiceProxyFactory.builderFor(RestClientAdapter.create(client)).build().createClient(Payments.class);
		}

		@Bean
		Checkout checkout(Payments payments) {
			return new Checkout(payments);
		}

	}

}
