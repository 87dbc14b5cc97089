package dev.modelgate.consumers.gateway;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.cloud.gateway.filter.factory.GatewayFilterFactory;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The route filter on Spring Boot 3.5 and Spring Cloud Gateway 4.3, in front of an upstream that
 * counts its calls: the retry is replayed and the upstream called once.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class GatewayRouteOnSpringBoot3Tests {

	private static final AtomicInteger calls = new AtomicInteger();

	private static final HttpServer upstream = startUpstream();

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@LocalServerPort
	int port;

	private static HttpServer startUpstream() {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
			server.createContext("/orders", (exchange) -> {
				try (exchange) {
					exchange.getRequestBody().readAllBytes();
					byte[] body = ("{\"order\":" + calls.incrementAndGet() + "}").getBytes(StandardCharsets.UTF_8);
					exchange.getResponseHeaders().set("Content-Type", "application/json");
					exchange.sendResponseHeaders(201, body.length);
					try (OutputStream out = exchange.getResponseBody()) {
						out.write(body);
					}
				}
			});
			server.start();
			return server;
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@AfterAll
	static void stopUpstream() {
		upstream.stop(0);
	}

	@DynamicPropertySource
	static void route(DynamicPropertyRegistry registry) {
		String route = "spring.cloud.gateway.server.webflux.routes[0]";
		registry.add(route + ".id", () -> "orders");
		registry.add(route + ".uri", () -> "http://127.0.0.1:" + upstream.getAddress().getPort());
		registry.add(route + ".predicates[0]", () -> "Path=/orders");
		registry.add(route + ".filters[0]", () -> "Idempotency");
	}

	@Test
	void runsOnSpringBoot3AndGateway43() {
		assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
		assertThat(GatewayFilterFactory.class.getPackage().getImplementationVersion()).startsWith("4.3.");
	}

	@Test
	void retryIsReplayedAndTheUpstreamCalledOnce() {
		String key = UUID.randomUUID().toString();
		int before = calls.get();

		HttpResponse<String> first = send(key);
		HttpResponse<String> retry = send(key);

		assertThat(first.statusCode()).isEqualTo(201);
		assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(retry.statusCode()).isEqualTo(201);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(calls.get() - before).isEqualTo(1);
	}

	private HttpResponse<String> send(String key) {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/orders"))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer boot3")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString("{\"item\":\"book\"}"))
			.build();
		try {
			return this.http.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
