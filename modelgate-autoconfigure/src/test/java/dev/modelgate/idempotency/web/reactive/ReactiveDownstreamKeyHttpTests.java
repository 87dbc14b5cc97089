package dev.modelgate.idempotency.web.reactive;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.client.DerivedIdempotencyKeyFilter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WebFlux handler under {@code @Idempotent} calls a downstream API (recording the {@code Idempotency-Key}s it
 * receives) through a {@code WebClient} with {@link DerivedIdempotencyKeyFilter}: the reactive engine puts the
 * attempt in Reactor's context, so the call carries a key derived from the request's scope, the same when the
 * request runs again after a release, another for another key, and none is sent for a replay.
 */
@Tag("boot")
@SpringBootTest(classes = ReactiveDownstreamKeyHttpTests.Application.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "modelgate.idempotency.store=memory",
				"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration" })
class ReactiveDownstreamKeyHttpTests {

	private static final List<String> KEYS = new CopyOnWriteArrayList<>();

	private static HttpServer downstream;

	@LocalServerPort
	private int port;

	@BeforeAll
	static void startDownstream() throws IOException {
		downstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		downstream.createContext("/", (exchange) -> {
			exchange.getRequestBody().readAllBytes();
			String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
			KEYS.add((key != null) ? key : "none");
			exchange.sendResponseHeaders(200, -1);
			exchange.close();
		});
		downstream.start();
	}

	@AfterAll
	static void stopDownstream() {
		downstream.stop(0);
	}

	@BeforeEach
	void noKeys() {
		KEYS.clear();
	}

	@Test
	void aRequestRunAgainAfterAReleaseSendsTheSameKeyAndAReplaySendsNone() {
		String key = UUID.randomUUID().toString();
		String otherKey = UUID.randomUUID().toString();

		checkout(key, 503).expectStatus().isEqualTo(503);
		checkout(key, 200).expectStatus().isOk();
		checkout(key, 200).expectStatus().isOk().expectHeader().valueEquals("Idempotent-Replayed", "true");
		checkout(otherKey, 200).expectStatus().isOk();

		assertThat(KEYS).hasSize(3).doesNotContain("none", key, otherKey);
		assertThat(KEYS.get(1)).isEqualTo(KEYS.get(0));
		assertThat(KEYS.get(2)).isNotEqualTo(KEYS.get(0));
	}

	@Test
	void aCallOutsideAKeyedRequestCarriesNoKey() {
		WebTestClient.bindToServer().baseUrl("http://127.0.0.1:" + this.port).build()
			.post().uri("/checkout?status=200").exchange().expectStatus().isOk();

		assertThat(KEYS).containsExactly("none");
	}

	private WebTestClient.ResponseSpec checkout(String key, int status) {
		return WebTestClient.bindToServer()
			.baseUrl("http://127.0.0.1:" + this.port)
			.build()
			.post()
			.uri("/checkout?status=" + status)
			.header("Idempotency-Key", key)
			.exchange();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Application {

		@Bean
		CheckoutController checkoutController() {
			return new CheckoutController(WebClient.builder()
				.baseUrl("http://127.0.0.1:" + downstream.getAddress().getPort())
				.clientConnector(new JdkClientHttpConnector())
				.filter(new DerivedIdempotencyKeyFilter())
				.build());
		}

	}

	@RestController
	static class CheckoutController {

		private final WebClient payments;

		CheckoutController(WebClient payments) {
			this.payments = payments;
		}

		/** Charges downstream, then answers {@code status}: a 503 releases the key, so a retry runs again. */
		@PostMapping("/checkout")
		@Idempotent
		Mono<ResponseEntity<String>> checkout(@RequestParam int status) {
			return this.payments.post()
				.uri("/charges")
				.bodyValue("{\"amount\":5}")
				.retrieve()
				.toBodilessEntity()
				.then(Mono.fromSupplier(() -> ResponseEntity.status(status).body("checked out")));
		}

	}

}
