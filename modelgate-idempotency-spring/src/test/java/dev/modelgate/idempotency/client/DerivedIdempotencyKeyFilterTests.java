package dev.modelgate.idempotency.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

import dev.modelgate.idempotency.core.DerivedKeys;
import dev.modelgate.idempotency.core.IdempotencyContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A downstream API that records the key header of every call, called through a {@code WebClient} with the
 * filter: the run is found in Reactor's context (where the WebFlux adapter puts it) or on the subscribing
 * thread; a call retried with {@code retryWhen} carries one key; the keys are the {@code RestClient}
 * interceptor's for the same calls.
 */
class DerivedIdempotencyKeyFilterTests {

	private static final IdempotencyContext.Held RUN = new IdempotencyContext.Held("scope-of-run-1", "token-a");

	private final List<String> keys = new CopyOnWriteArrayList<>();

	private final AtomicInteger failuresLeft = new AtomicInteger();

	private HttpServer downstream;

	private String baseUrl;

	@BeforeEach
	void start() throws IOException {
		this.downstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.downstream.createContext("/", (exchange) -> {
			exchange.getRequestBody().readAllBytes();
			String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
			String other = exchange.getRequestHeaders().getFirst("X-Request-Key");
			this.keys.add((key != null) ? key : (other != null) ? "X-Request-Key:" + other : "none");
			int status = (this.failuresLeft.getAndDecrement() > 0) ? 503 : 200;
			exchange.sendResponseHeaders(status, -1);
			exchange.close();
		});
		this.downstream.start();
		this.baseUrl = "http://127.0.0.1:" + this.downstream.getAddress().getPort();
	}

	@AfterEach
	void stop() {
		this.downstream.stop(0);
	}

	@Test
	void retriesOfOneCallCarryOneKeyFromReactorsContext() {
		this.failuresLeft.set(2);

		charge(client(new DerivedIdempotencyKeyFilter()), "{\"amount\":5}")
			.retryWhen(Retry.max(2))
			.contextWrite((context) -> context.put(IdempotencyContext.CONTEXT_KEY, RUN))
			.block(Duration.ofSeconds(10));

		assertThat(this.keys).hasSize(3).doesNotContain("none").containsOnly(this.keys.get(0));
	}

	@Test
	void keysAreTheRestClientInterceptorsForTheSameCalls() {
		WebClient webClient = client(new DerivedIdempotencyKeyFilter());
		RestClient restClient = RestClient.builder()
			.baseUrl(this.baseUrl)
			.requestInterceptor(new DerivedIdempotencyKeyInterceptor())
			.build();

		charge(webClient, "{\"amount\":5}").contextWrite((context) -> context.put(IdempotencyContext.CONTEXT_KEY, RUN))
			.block(Duration.ofSeconds(10));
		webClient.get().uri("/charges/1").retrieve().toBodilessEntity()
			.contextWrite((context) -> context.put(IdempotencyContext.CONTEXT_KEY, RUN))
			.block(Duration.ofSeconds(10));
		try (IdempotencyContext.Binding binding = IdempotencyContext.bind(RUN)) {
			restClient.post().uri("/charges").body("{\"amount\":5}").retrieve().toBodilessEntity();
			restClient.get().uri("/charges/1").retrieve().toBodilessEntity();
		}

		assertThat(this.keys).hasSize(4).doesNotContain("none");
		assertThat(this.keys.get(0)).isEqualTo(this.keys.get(2)).isNotEqualTo(this.keys.get(1));
		assertThat(this.keys.get(1)).isEqualTo(this.keys.get(3));
	}

	@Test
	void namedCallsOtherBodiesAndOtherRunsGetOtherKeys() {
		WebClient webClient = client(new DerivedIdempotencyKeyFilter());
		IdempotencyContext.Held otherRun = new IdempotencyContext.Held("scope-of-run-2", "token-b");

		for (IdempotencyContext.Held run : List.of(RUN, otherRun)) {
			for (String body : List.of("{\"amount\":5}", "{\"amount\":6}")) {
				charge(webClient, body).contextWrite((context) -> context.put(IdempotencyContext.CONTEXT_KEY, run))
					.block(Duration.ofSeconds(10));
			}
		}
		webClient.post().uri("/charges").attribute(DerivedIdempotencyKeyInterceptor.CALL, "charge")
			.bodyValue("{\"amount\":5}").retrieve().toBodilessEntity()
			.contextWrite((context) -> context.put(IdempotencyContext.CONTEXT_KEY, RUN))
			.block(Duration.ofSeconds(10));

		assertThat(this.keys).hasSize(5).doesNotHaveDuplicates().doesNotContain("none");
		assertThat(this.keys.get(4)).isEqualTo(DerivedKeys.uuid(RUN.scope(), "call", "charge"));
	}

	@Test
	void theRunOnTheSubscribingThreadIsUsedWhenTheContextHasNone() {
		WebClient webClient = client(new DerivedIdempotencyKeyFilter());

		try (IdempotencyContext.Binding binding = IdempotencyContext.bind(RUN)) {
			charge(webClient, "{\"amount\":5}").block(Duration.ofSeconds(10));
		}
		// Another attempt of the same run (a takeover: another token) sends the same key.
		try (IdempotencyContext.Binding binding = IdempotencyContext.bind(
				new IdempotencyContext.Held(RUN.scope(), "token-after-takeover"))) {
			charge(webClient, "{\"amount\":5}").block(Duration.ofSeconds(10));
		}

		assertThat(this.keys).hasSize(2).doesNotContain("none").containsOnly(this.keys.get(0));
	}

	@Test
	void callsOutsideARunGetNoKeyAndAKeyGivenIsKept() {
		WebClient webClient = client(new DerivedIdempotencyKeyFilter());

		charge(webClient, "{\"amount\":5}").block(Duration.ofSeconds(10));
		webClient.post().uri("/charges").header("Idempotency-Key", "mine").bodyValue("{}").retrieve()
			.toBodilessEntity()
			.contextWrite((context) -> context.put(IdempotencyContext.CONTEXT_KEY, RUN))
			.block(Duration.ofSeconds(10));

		assertThat(this.keys).containsExactly("none", "mine");
	}

	@Test
	void sendsTheKeyInTheHeaderNamed() {
		charge(client(new DerivedIdempotencyKeyFilter("X-Request-Key")), "{\"amount\":5}")
			.contextWrite((context) -> context.put(IdempotencyContext.CONTEXT_KEY, RUN))
			.block(Duration.ofSeconds(10));

		assertThat(this.keys).singleElement().asString().startsWith("X-Request-Key:");
		assertThatIllegalArgumentException().isThrownBy(() -> new DerivedIdempotencyKeyFilter(" "));
	}

	private WebClient client(DerivedIdempotencyKeyFilter filter) {
		return WebClient.builder().baseUrl(this.baseUrl).clientConnector(new JdkClientHttpConnector()).filter(filter)
			.build();
	}

	private static Mono<?> charge(WebClient client, String body) {
		return client.post().uri("/charges").bodyValue(body).retrieve().toBodilessEntity();
	}

}
